/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_sync.h - atomics, refcounts, locks, RCU, percpu_ref, work items and
 * static keys for single-threaded replay of kernel code.  Atomics are
 * plain counters (compiler atomics, so a threaded engine stays defined);
 * locks do nothing; RCU readers and grace periods are free; work runs at
 * once.  (niov_resources.binding_refs is read from the live bindings by
 * the adapter, not counted here: error paths free a binding whose
 * reference was never dropped, as they may.)
 */
#ifndef NIOV_K_SYNC_H
#define NIOV_K_SYNC_H

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct { s64 counter; } atomic64_t;
#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#define __niov_atomic_ops(pfx, T, V)						\
static inline V pfx##_read(const T *v) { return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST); } \
static inline void pfx##_set(T *v, V i) { __atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline void pfx##_add(V i, T *v) { __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline void pfx##_sub(V i, T *v) { __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline void pfx##_inc(T *v) { pfx##_add(1, v); }			\
static inline void pfx##_dec(T *v) { pfx##_sub(1, v); }			\
static inline V pfx##_add_return(V i, T *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline V pfx##_sub_return(V i, T *v) { return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline V pfx##_fetch_add(V i, T *v) { return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline V pfx##_fetch_sub(V i, T *v) { return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline V pfx##_inc_return(T *v) { return pfx##_add_return(1, v); } \
static inline V pfx##_dec_return(T *v) { return pfx##_sub_return(1, v); } \
static inline bool pfx##_dec_and_test(T *v) { return pfx##_sub_return(1, v) == 0; } \
static inline bool pfx##_sub_and_test(V i, T *v) { return pfx##_sub_return(i, v) == 0; } \
static inline V pfx##_cmpxchg(T *v, V old, V new) {			\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	return old; }							\
static inline bool pfx##_try_cmpxchg(T *v, V *old, V new) {		\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); } \
static inline V pfx##_xchg(T *v, V new) { return __atomic_exchange_n(&v->counter, new, __ATOMIC_SEQ_CST); }

__niov_atomic_ops(atomic, atomic_t, int)
__niov_atomic_ops(atomic_long, atomic_long_t, long)
__niov_atomic_ops(atomic64, atomic64_t, s64)
#undef __niov_atomic_ops

#define cmpxchg(p, o, n) ({ typeof(*(p)) __o = (o);				\
	__atomic_compare_exchange_n(p, &__o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); __o; })
#define try_cmpxchg(p, po, n) \
	__atomic_compare_exchange_n(p, po, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define xchg(p, n)	__atomic_exchange_n(p, n, __ATOMIC_SEQ_CST)

typedef struct { atomic_t refs; } refcount_t;
#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n) }
static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r) { return atomic_read(&r->refs); }
static inline void refcount_inc(refcount_t *r)
{
	WARN_ON(atomic_read(&r->refs) == 0);	/* refcount_t: addition on 0 */
	atomic_inc(&r->refs);
}
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	if (atomic_read(&r->refs) == 0)
		return false;
	refcount_inc(r);
	return true;
}
static inline bool refcount_dec_and_test(refcount_t *r)
{
	if (WARN_ON(atomic_read(&r->refs) <= 0))	/* underflow */
		return false;
	return atomic_dec_and_test(&r->refs);
}
static inline void refcount_dec(refcount_t *r) { (void)refcount_dec_and_test(r); }

/* percpu_ref: one counter; the initial reference is dropped by kill. */
struct percpu_ref;
typedef void (percpu_ref_func_t)(struct percpu_ref *);
struct percpu_ref {
	long count;
	bool dead;
	bool inited;
	percpu_ref_func_t *release;
};
#define PERCPU_REF_INIT_ATOMIC	(1 << 0)
#define PERCPU_REF_INIT_DEAD	(1 << 1)
#define PERCPU_REF_ALLOW_REINIT	(1 << 2)
int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release,
		    unsigned int flags, gfp_t gfp);
void percpu_ref_exit(struct percpu_ref *ref);
void percpu_ref_get_many(struct percpu_ref *ref, unsigned long nr);
void percpu_ref_put_many(struct percpu_ref *ref, unsigned long nr);
bool percpu_ref_tryget(struct percpu_ref *ref);
bool percpu_ref_tryget_live(struct percpu_ref *ref);
void percpu_ref_kill(struct percpu_ref *ref);
#define percpu_ref_get(r)	percpu_ref_get_many(r, 1)
#define percpu_ref_put(r)	percpu_ref_put_many(r, 1)
#define percpu_ref_is_zero(r)	((r)->count == 0)
#define percpu_ref_is_dying(r)	((r)->dead)

typedef struct { int locked; } spinlock_t;
typedef struct { int locked; } raw_spinlock_t;
typedef struct { int locked; } rwlock_t;
typedef struct { unsigned int seq; } seqcount_t;
struct mutex { int locked; };
struct rw_semaphore { int locked; };
struct lock_class_key { int unused; };
#define __SPIN_LOCK_UNLOCKED(n)	{ 0 }
#define DEFINE_SPINLOCK(n)	spinlock_t n = { 0 }
#define DEFINE_MUTEX(n)		struct mutex n = { 0 }
#define spin_lock_init(l)	((void)(l))
#define spin_lock(l)		((void)(l))
#define spin_unlock(l)		((void)(l))
#define spin_lock_bh(l)		((void)(l))
#define spin_unlock_bh(l)	((void)(l))
#define spin_lock_irq(l)	((void)(l))
#define spin_unlock_irq(l)	((void)(l))
#define spin_lock_irqsave(l, f)	((void)(l), (f) = 0)
#define spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))
#define spin_trylock(l)		((void)(l), 1)
#define raw_spin_lock_init(l)	((void)(l))
#define raw_spin_lock(l)	((void)(l))
#define raw_spin_unlock(l)	((void)(l))
#define raw_spin_lock_irqsave(l, f) ((void)(l), (f) = 0)
#define raw_spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))
#define mutex_init(m)		((void)(m))
#define mutex_destroy(m)	((void)(m))
#define mutex_lock(m)		((void)(m))
#define mutex_unlock(m)		((void)(m))
#define mutex_trylock(m)	((void)(m), 1)
#define mutex_is_locked(m)	((void)(m), 0)
#define local_bh_disable()	do { } while (0)
#define local_bh_enable()	do { } while (0)
#define local_irq_save(f)	((f) = 0)
#define local_irq_restore(f)	((void)(f))
#define preempt_disable()	do { } while (0)
#define preempt_enable()	do { } while (0)
#define rtnl_lock()		do { } while (0)
#define rtnl_unlock()		do { } while (0)
#define netdev_lock(d)		do { } while (0)
#define netdev_unlock(d)	do { } while (0)
#define netdev_lock_ops(d)	do { } while (0)
#define netdev_unlock_ops(d)	do { } while (0)
#define guard(x)		struct { int unused; } __UNIQUE_ID(guard) __maybe_unused; (void)

#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define rcu_read_lock_bh()	do { } while (0)
#define rcu_read_unlock_bh()	do { } while (0)
#define synchronize_rcu()	do { } while (0)
#define synchronize_net()	do { } while (0)
#define rcu_barrier()		do { } while (0)
#define rcu_dereference(p)	(p)
#define rcu_dereference_protected(p, c) (p)
#define rcu_dereference_raw(p)	(p)
#define rcu_access_pointer(p)	(p)
#define rcu_assign_pointer(p, v) ((p) = (v))
#define RCU_INIT_POINTER(p, v)	((p) = (v))
#define rcu_head		callback_head
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define call_rcu(h, f)		(f)(h)

/* Work runs at once: nothing here is asynchronous. */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	work_func_t func;
};
struct delayed_work {
	struct work_struct work;
};
#define INIT_WORK(w, f)		((w)->func = (f))
#define INIT_DELAYED_WORK(w, f)	INIT_WORK(&(w)->work, f)
static inline bool schedule_work(struct work_struct *w) { w->func(w); return true; }
#define queue_work(wq, w)	schedule_work(w)
#define schedule_delayed_work(w, d) schedule_work(&(w)->work)
#define cancel_work_sync(w)	false
#define flush_work(w)		false
#define flush_workqueue(wq)	do { } while (0)

struct static_key_false { int enabled; };
struct static_key_true { int enabled; };
#define DECLARE_STATIC_KEY_FALSE(n)	extern struct static_key_false n
#define DEFINE_STATIC_KEY_FALSE(n)	struct static_key_false n = { 0 }
#define static_branch_unlikely(k)	((k)->enabled)
#define static_branch_likely(k)		((k)->enabled)
#define static_branch_inc(k)		((k)->enabled++)
#define static_branch_dec(k)		((k)->enabled--)
#define static_key_enabled(k)		((k)->enabled)

#endif /* NIOV_K_SYNC_H */
