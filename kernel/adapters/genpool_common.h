/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genpool_common.h - the gen_pool eras (a) and (b): walking the chunk
 * owners of a binding into the adapter's niov arrays and the RX allocator
 * (net_devmem_alloc_dmabuf / net_devmem_free_dmabuf, real).
 *
 * NIOV_K_OWNER_AREA (from the era probe): the owner keeps its niovs in a
 * struct net_iov_area (6.13 on) rather than in fields of its own (6.12).
 */
#ifndef NIOV_K_GENPOOL_COMMON_H
#define NIOV_K_GENPOOL_COMMON_H

#ifdef NIOV_K_OWNER_AREA
#define NIOV_K_OWNER_NIOVS(o)	((o)->area.niovs)
#define NIOV_K_OWNER_NUM(o)	((o)->area.num_niovs)
#define NIOV_K_OWNER_VIRT(o)	((o)->area.base_virtual)
#else
#define NIOV_K_OWNER_NIOVS(o)	((o)->niovs)
#define NIOV_K_OWNER_NUM(o)	((o)->num_niovs)
#define NIOV_K_OWNER_VIRT(o)	((o)->base_virtual)
#endif

static void niov_k_collect_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	struct dmabuf_genpool_chunk_owner *owner = chunk->owner;
	struct niov_k_binding *kb = data;

	(void)pool;
	if (!niov_k_add_array(kb, NIOV_K_OWNER_NIOVS(owner), NIOV_K_OWNER_NUM(owner),
			      NIOV_K_OWNER_VIRT(owner)))
		niov_libc_report("out of memory mapping the niov table");
}

/* Register every chunk's niovs, in sg order. */
static void niov_k_map_genpool(struct niov_k_binding *kb)
{
	gen_pool_for_each_chunk(kb->b->chunk_pool, niov_k_collect_chunk, kb);
	niov_k_number_arrays(kb);
	kb->niov_shift = PAGE_SHIFT;
}

struct niov_k_rx_alloc_call {
	struct niov_k_binding *kb;
	struct net_iov *niov;
};

static long niov_k_rx_alloc_guarded(void *arg)
{
	struct niov_k_rx_alloc_call *c = arg;

	c->niov = net_devmem_alloc_dmabuf(c->kb->b);
	return 0;
}

static int niov_k_op_rx_alloc(void *binding, uint64_t *idx, uint64_t *virt, uint64_t *dma)
{
	struct niov_k_rx_alloc_call c = { .kb = binding };

	niov_k_configure(&c.kb->cfg);
	if (niov_k_guarded(niov_k_rx_alloc_guarded, &c, NIOV_K_EBUG) == NIOV_K_EBUG)
		return NIOV_K_EBUG;
	if (!c.niov)
		return -ENOMEM;
	niov_k_res.niov_refs++;
	*idx = niov_k_index(c.kb, c.niov);
	if (*idx == NIOV_K_FOREIGN_NIOV) {
		/* not one of the table's: say so, touch nothing of it */
		*virt = *dma = 0;
		return 0;
	}
	*virt = net_iov_virtual_addr(c.niov);
	*dma = net_devmem_get_dma_addr(c.niov);
	return 0;
}

struct niov_k_rx_free_call {
	struct net_iov *niov;
};

static long niov_k_rx_free_guarded(void *arg)
{
	net_devmem_free_dmabuf(((struct niov_k_rx_free_call *)arg)->niov);
	return 0;
}

static void niov_k_op_rx_free(void *binding, uint64_t idx)
{
	struct niov_k_binding *kb = binding;
	struct niov_k_rx_free_call c = { .niov = niov_k_niov(kb, idx) };

	niov_k_configure(&kb->cfg);
	niov_k_res.niov_refs--;
	if (!c.niov) {
		niov_libc_report("rx_free of niov %llu, not in the table", (unsigned long long)idx);
		return;
	}
	(void)niov_k_guarded(niov_k_rx_free_guarded, &c, NIOV_K_EBUG);
}

#endif /* NIOV_K_GENPOOL_COMMON_H */
