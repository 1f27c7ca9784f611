// SPDX-License-Identifier: GPL-2.0
/*
 * xarray.c - the xarray calls devmem makes, on a table sorted by index.
 * Bindings and bound queues number a handful; a linear table is plenty.
 * The storage is the runtime's own (libc), so it is neither counted as the
 * code's allocations nor failed by NIOV_FAULT_ALLOC.
 */
#include "runtime.h"
#include "libc_bridge.h"

static unsigned int slot_at_or_after(const struct xarray *xa, unsigned long index)
{
	unsigned int i;

	for (i = 0; i < xa->nr && xa->slots[i].index < index; i++)
		;
	return i;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	unsigned int i = slot_at_or_after(xa, index);

	return i < xa->nr && xa->slots[i].index == index ? xa->slots[i].entry : NULL;
}

static bool grow(struct xarray *xa)
{
	struct niov_k_xa_slot *n;
	unsigned int cap = xa->cap ? xa->cap * 2 : 8;

	n = niov_libc_malloc(cap * sizeof(*n));
	if (!n)
		return false;
	if (xa->nr)
		memcpy(n, xa->slots, xa->nr * sizeof(*n));
	niov_libc_free(xa->slots);
	xa->slots = n;
	xa->cap = cap;
	return true;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	unsigned int i = slot_at_or_after(xa, index);
	void *old;

	if (i >= xa->nr || xa->slots[i].index != index)
		return NULL;
	old = xa->slots[i].entry;
	memmove(&xa->slots[i], &xa->slots[i + 1], (xa->nr - i - 1) * sizeof(xa->slots[0]));
	xa->nr--;
	if (!xa->nr) {
		niov_libc_free(xa->slots);
		xa->slots = NULL;
		xa->cap = 0;
	}
	return old;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	unsigned int i = slot_at_or_after(xa, index);
	void *old;

	(void)gfp;
	if (!entry)
		return xa_erase(xa, index);
	if (i < xa->nr && xa->slots[i].index == index) {
		old = xa->slots[i].entry;
		xa->slots[i].entry = entry;
		return old;
	}
	if (xa->nr == xa->cap && !grow(xa))
		return NULL;
	memmove(&xa->slots[i + 1], &xa->slots[i], (xa->nr - i) * sizeof(xa->slots[0]));
	xa->slots[i].index = index;
	xa->slots[i].entry = entry;
	xa->nr++;
	return NULL;
}

/* The lowest free index in [lo, hi], or false. */
static bool free_index(const struct xarray *xa, unsigned long lo, unsigned long hi,
		       unsigned long *out)
{
	unsigned long want = lo;
	unsigned int i;

	for (i = slot_at_or_after(xa, lo); i < xa->nr && xa->slots[i].index == want; i++) {
		if (want == hi)
			return false;
		want++;
	}
	if (want > hi)
		return false;
	*out = want;
	return true;
}

static unsigned long alloc_floor(const struct xarray *xa, const struct xa_limit *limit)
{
	unsigned long lo = limit->min;

	if ((xa->xa_flags & XA_FLAGS_ALLOC1) && lo == 0)
		lo = 1;
	return lo;
}

int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit, gfp_t gfp)
{
	unsigned long idx;

	if (!free_index(xa, alloc_floor(xa, &limit), limit.max, &idx))
		return -EBUSY;
	if (xa->nr == xa->cap && !grow(xa))
		return -ENOMEM;
	xa_store(xa, idx, entry, gfp);
	*id = (u32)idx;
	return 0;
}

int xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
		    u32 *next, gfp_t gfp)
{
	unsigned long lo = alloc_floor(xa, &limit), idx;
	int wrapped = 0;

	if (niov_k_fault_hit(NIOV_FAULT_ID_ALLOC))
		return -EBUSY;
	if (*next > lo)
		lo = *next;
	if (!free_index(xa, lo, limit.max, &idx)) {
		if (!free_index(xa, alloc_floor(xa, &limit), limit.max, &idx))
			return -EBUSY;
		wrapped = 1;
	}
	if (xa->nr == xa->cap && !grow(xa))
		return -ENOMEM;
	xa_store(xa, idx, entry, gfp);
	*id = (u32)idx;
	*next = (u32)(idx + 1);
	return wrapped;
}

void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t mark)
{
	unsigned int i = slot_at_or_after(xa, *index);

	(void)mark;
	if (i >= xa->nr || xa->slots[i].index > max)
		return NULL;
	*index = xa->slots[i].index;
	return xa->slots[i].entry;
}

void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t mark)
{
	unsigned long next;

	if (*index == ULONG_MAX)
		return NULL;
	next = *index + 1;
	return xa_find(xa, &next, max, mark) ? (*index = next, xa_load(xa, next)) : NULL;
}

void xa_destroy(struct xarray *xa)
{
	niov_libc_free(xa->slots);
	xa->slots = NULL;
	xa->nr = xa->cap = 0;
}
