/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_list.h - doubly linked lists (and their _rcu forms, the same thing when
 * nothing runs concurrently).
 */
#ifndef NIOV_K_LIST_H
#define NIOV_K_LIST_H

struct list_head {
	struct list_head *next, *prev;
};
struct hlist_node {
	struct hlist_node *next, **pprev;
};
struct hlist_head {
	struct hlist_node *first;
};

#define LIST_HEAD_INIT(n)	{ &(n), &(n) }
#define LIST_HEAD(n)		struct list_head n = LIST_HEAD_INIT(n)
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l; l->prev = l; }
static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}
static inline void list_add(struct list_head *n, struct list_head *h) { __list_add(n, h, h->next); }
static inline void list_add_tail(struct list_head *n, struct list_head *h) { __list_add(n, h->prev, h); }
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}
static inline void list_del(struct list_head *e)
{
	__list_del(e->prev, e->next);
	e->next = (struct list_head *)0x100;	/* LIST_POISON1 */
	e->prev = (struct list_head *)0x122;	/* LIST_POISON2 */
}
static inline void list_del_init(struct list_head *e) { __list_del(e->prev, e->next); INIT_LIST_HEAD(e); }
static inline bool list_empty(const struct list_head *h) { return h->next == h; }
static inline bool list_is_singular(const struct list_head *h) { return !list_empty(h) && h->next == h->prev; }
static inline void list_move(struct list_head *e, struct list_head *h) { __list_del(e->prev, e->next); list_add(e, h); }
static inline void list_move_tail(struct list_head *e, struct list_head *h) { __list_del(e->prev, e->next); list_add_tail(e, h); }
#define list_add_rcu		list_add
#define list_add_tail_rcu	list_add_tail
#define list_del_rcu		list_del
#define list_entry(p, T, m)	container_of(p, T, m)
#define list_first_entry(h, T, m) list_entry((h)->next, T, m)
#define list_last_entry(h, T, m) list_entry((h)->prev, T, m)
#define list_first_entry_or_null(h, T, m) (list_empty(h) ? NULL : list_first_entry(h, T, m))
#define list_next_entry(p, m)	list_entry((p)->m.next, typeof(*(p)), m)
#define list_entry_is_head(p, h, m) (&(p)->m == (h))
#define list_for_each(p, h)	for (p = (h)->next; p != (h); p = p->next)
#define list_for_each_safe(p, n, h) for (p = (h)->next, n = p->next; p != (h); p = n, n = p->next)
#define list_for_each_entry(p, h, m) \
	for (p = list_first_entry(h, typeof(*p), m); !list_entry_is_head(p, h, m); p = list_next_entry(p, m))
#define list_for_each_entry_safe(p, n, h, m)					\
	for (p = list_first_entry(h, typeof(*p), m), n = list_next_entry(p, m);	\
	     !list_entry_is_head(p, h, m); p = n, n = list_next_entry(n, m))
#define list_for_each_entry_rcu(p, h, m, ...)	list_for_each_entry(p, h, m)

#define HLIST_HEAD_INIT		{ .first = NULL }
#define INIT_HLIST_HEAD(h)	((h)->first = NULL)
static inline void INIT_HLIST_NODE(struct hlist_node *n) { n->next = NULL; n->pprev = NULL; }
static inline bool hlist_unhashed(const struct hlist_node *n) { return !n->pprev; }
static inline bool hlist_empty(const struct hlist_head *h) { return !h->first; }
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}
static inline void hlist_del(struct hlist_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->pprev = NULL;
}
static inline void hlist_del_init(struct hlist_node *n) { if (!hlist_unhashed(n)) hlist_del(n); INIT_HLIST_NODE(n); }
#define hlist_entry(p, T, m)	container_of(p, T, m)
#define hlist_entry_safe(p, T, m) ({ typeof(p) __p = (p); __p ? hlist_entry(__p, T, m) : NULL; })
#define hlist_for_each_entry(p, h, m) \
	for (p = hlist_entry_safe((h)->first, typeof(*(p)), m); p; p = hlist_entry_safe((p)->m.next, typeof(*(p)), m))
#define hlist_for_each_entry_safe(p, n, h, m)						\
	for (p = hlist_entry_safe((h)->first, typeof(*p), m);				\
	     p && ({ n = p->m.next; 1; }); p = hlist_entry_safe(n, typeof(*p), m))

#endif /* NIOV_K_LIST_H */
