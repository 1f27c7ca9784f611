/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_xarray.h - the xarray API devmem uses, on a small sorted table
 * (runtime/xarray.c).  Its storage is the runtime's, not the code's: it is
 * not counted as the code's allocations and never fails, except
 * xa_alloc_cyclic() under NIOV_FAULT_ID_ALLOC.
 */
#ifndef NIOV_K_XARRAY_H
#define NIOV_K_XARRAY_H

struct niov_k_xa_slot {
	unsigned long index;
	void *entry;
};
struct xarray {
	unsigned int xa_flags;
	unsigned int nr, cap;
	struct niov_k_xa_slot *slots;
};
struct xa_limit {
	u32 max;
	u32 min;
};
typedef unsigned int xa_mark_t;

#define XA_FLAGS_ALLOC		(1u << 0)
#define XA_FLAGS_ALLOC1		(1u << 1)
#define XA_FLAGS_LOCK_IRQ	0
#define XA_FLAGS_LOCK_BH	0
#define XA_PRESENT		((xa_mark_t)8)
#define XA_MARK_0		((xa_mark_t)0)
#define XA_LIMIT(lo, hi)	((struct xa_limit){ .min = (lo), .max = (hi) })
#define xa_limit_32b		XA_LIMIT(0, UINT_MAX)
#define xa_limit_31b		XA_LIMIT(0, INT_MAX)
#define xa_limit_16b		XA_LIMIT(0, USHRT_MAX)
#define USHRT_MAX		((unsigned short)~0U)
#define XARRAY_INIT(n, f)	{ .xa_flags = (f) }
#define DEFINE_XARRAY_FLAGS(n, f) struct xarray n = XARRAY_INIT(n, f)
#define DEFINE_XARRAY(n)	DEFINE_XARRAY_FLAGS(n, 0)
#define DEFINE_XARRAY_ALLOC(n)	DEFINE_XARRAY_FLAGS(n, XA_FLAGS_ALLOC)
#define DEFINE_XARRAY_ALLOC1(n)	DEFINE_XARRAY_FLAGS(n, XA_FLAGS_ALLOC1)

static inline void xa_init_flags(struct xarray *xa, unsigned int flags)
{
	xa->xa_flags = flags;
	xa->nr = xa->cap = 0;
	xa->slots = NULL;
}
#define xa_init(xa)	xa_init_flags(xa, 0)
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
void *xa_erase(struct xarray *xa, unsigned long index);
int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit, gfp_t gfp);
int xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
		    u32 *next, gfp_t gfp);
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t mark);
void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t mark);
void xa_destroy(struct xarray *xa);
static inline bool xa_empty(const struct xarray *xa) { return xa->nr == 0; }
#define xa_for_each_range(xa, index, entry, start, last)			\
	for (index = start, entry = xa_find(xa, &index, last, XA_PRESENT);	\
	     entry; entry = xa_find_after(xa, &index, last, XA_PRESENT))
#define xa_for_each_start(xa, index, entry, start) \
	xa_for_each_range(xa, index, entry, start, ULONG_MAX)
#define xa_for_each(xa, index, entry)	xa_for_each_start(xa, index, entry, 0)
#define xa_for_each_marked(xa, index, entry, filter) xa_for_each(xa, index, entry)
#define xa_lock(xa)		((void)(xa))
#define xa_unlock(xa)		((void)(xa))
#define __xa_erase(xa, i)	xa_erase(xa, i)
#define __xa_store(xa, i, e, g)	xa_store(xa, i, e, g)
#define __xa_alloc(xa, id, e, l, g) xa_alloc(xa, id, e, l, g)
#define xa_is_err(e)		false
#define xa_err(e)		0

#endif /* NIOV_K_XARRAY_H */
