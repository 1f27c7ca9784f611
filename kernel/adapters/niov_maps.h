/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niov_maps.h - the ABI-side binding and the map between the code's niov
 * pointers and the suite's niov table indices.
 *
 * Niov indices: the suite numbers niovs consecutively in sg order from 0.
 * The code keeps them in one or several arrays (a gen_pool chunk each, or
 * one area); each array is registered with the index of its first niov.
 * A pointer in no registered array (a garbage tx_vec entry, say) maps to
 * an index past the table - the suite reports it - and is never read.
 */
#ifndef NIOV_K_NIOV_MAPS_H
#define NIOV_K_NIOV_MAPS_H

struct niov_k_array {
	struct net_iov *base;
	u64 count;
	u64 first;		/* suite index of base[0] */
	u64 sort_key;		/* dmabuf offset of base[0] (sg order) */
};

struct niov_k_binding {
	struct net_devmem_dmabuf_binding *b;
	struct niov_impl_config cfg;
	u32 dir;
	int fd;
	u32 niov_shift;
	u64 num_niovs;
	u32 rxq;		/* the rx queue an RX binding is bound to */
	u32 nr_arrays, cap_arrays;
	struct niov_k_array *arrays;	/* in sg order, numbered from 0 */
	struct niov_k_array *by_addr;	/* the same, by base address: pointer -> index */
};

static inline bool niov_k_add_array(struct niov_k_binding *kb, struct net_iov *base,
				    u64 count, u64 sort_key)
{
	struct niov_k_array *n;

	if (kb->nr_arrays == kb->cap_arrays) {
		u32 cap = kb->cap_arrays ? kb->cap_arrays * 2 : 8;

		n = niov_libc_malloc(cap * sizeof(*n));
		if (!n)
			return false;
		if (kb->nr_arrays)
			memcpy(n, kb->arrays, kb->nr_arrays * sizeof(*n));
		niov_libc_free(kb->arrays);
		kb->arrays = n;
		kb->cap_arrays = cap;
	}
	kb->arrays[kb->nr_arrays].base = base;
	kb->arrays[kb->nr_arrays].count = count;
	kb->arrays[kb->nr_arrays].sort_key = sort_key;
	kb->nr_arrays++;
	return true;
}

static int niov_k_by_key(const void *a, const void *b)
{
	const struct niov_k_array *x = a, *y = b;

	return x->sort_key < y->sort_key ? -1 : x->sort_key > y->sort_key;
}

static int niov_k_by_base(const void *a, const void *b)
{
	const struct niov_k_array *x = a, *y = b;

	return (uintptr_t)x->base < (uintptr_t)y->base ? -1 : (uintptr_t)x->base > (uintptr_t)y->base;
}

/*
 * Put the arrays in sg order, number their niovs from 0, and keep a copy
 * ordered by address: a binding of thousands of sg entries has thousands
 * of gen_pool chunks, and both maps are asked once per niov a sweep or a
 * probe touches, so both are binary searches.
 */
static inline void niov_k_number_arrays(struct niov_k_binding *kb)
{
	u32 i;
	u64 next = 0;

	niov_libc_sort(kb->arrays, kb->nr_arrays, sizeof(*kb->arrays), niov_k_by_key);
	for (i = 0; i < kb->nr_arrays; i++) {
		kb->arrays[i].first = next;
		next += kb->arrays[i].count;
	}
	kb->num_niovs = next;
	niov_libc_free(kb->by_addr);
	kb->by_addr = niov_libc_malloc((kb->nr_arrays ? kb->nr_arrays : 1) * sizeof(*kb->by_addr));
	if (!kb->by_addr) {
		niov_libc_report("out of memory mapping the niov table");
		return;
	}
	memcpy(kb->by_addr, kb->arrays, kb->nr_arrays * sizeof(*kb->arrays));
	niov_libc_sort(kb->by_addr, kb->nr_arrays, sizeof(*kb->by_addr), niov_k_by_base);
}

/* The suite's index of @niov; NIOV_K_FOREIGN_NIOV when it is in no array. */
static inline u64 niov_k_index(const struct niov_k_binding *kb, const struct net_iov *niov)
{
	uintptr_t p = (uintptr_t)niov;
	u32 lo = 0, hi = kb->by_addr ? kb->nr_arrays : 0;

	while (lo < hi) {	/* the last array whose base is at or below p */
		u32 mid = lo + (hi - lo) / 2;

		if ((uintptr_t)kb->by_addr[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		const struct niov_k_array *a = &kb->by_addr[lo - 1];
		uintptr_t base = (uintptr_t)a->base;

		if (p < base + a->count * sizeof(struct net_iov) && (p - base) % sizeof(struct net_iov) == 0)
			return a->first + (p - base) / sizeof(struct net_iov);
	}
	return NIOV_K_FOREIGN_NIOV;
}

static inline struct net_iov *niov_k_niov(const struct niov_k_binding *kb, u64 idx)
{
	u32 lo = 0, hi = kb->nr_arrays;

	while (lo < hi) {	/* the last array whose first index is at or below idx */
		u32 mid = lo + (hi - lo) / 2;

		if (kb->arrays[mid].first <= idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && idx - kb->arrays[lo - 1].first < kb->arrays[lo - 1].count)
		return &kb->arrays[lo - 1].base[idx - kb->arrays[lo - 1].first];
	return NULL;
}

/* The binding whose arrays hold @niov, among the live ones. */
#define NIOV_K_MAX_LIVE	16
static struct niov_k_binding *niov_k_live[NIOV_K_MAX_LIVE];

static inline bool niov_k_known(const struct net_iov *niov)
{
	unsigned int i;

	for (i = 0; i < NIOV_K_MAX_LIVE; i++) {
		if (niov_k_live[i] && niov_k_index(niov_k_live[i], niov) != NIOV_K_FOREIGN_NIOV)
			return true;
	}
	return false;
}

static inline void niov_k_set_live(struct niov_k_binding *kb, bool live)
{
	unsigned int i;

	for (i = 0; i < NIOV_K_MAX_LIVE; i++) {
		if (live ? !niov_k_live[i] : niov_k_live[i] == kb) {
			niov_k_live[i] = live ? kb : NULL;
			return;
		}
	}
}

#endif /* NIOV_K_NIOV_MAPS_H */
