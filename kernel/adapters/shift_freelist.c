// SPDX-License-Identifier: GPL-2.0
/*
 * shift_freelist.c - era (c): the 2026 freelist bind.  The bind takes a
 * niov_shift (bind-rx's rx-buf-size attribute, PAGE_SHIFT for bind-tx), the
 * binding owns one net_iov_area numbered in sg order, RX niovs come from a
 * u32 freelist through the provider's bulk allocation, bind-to-queue asks
 * the driver for rx_page_size, and the provider's init wants the page_pool
 * order niov_shift - PAGE_SHIFT.  TX is as the era has it: tx_vec, a
 * page-granular get_niov_at, the fill of net/core/datagram.c.  Checked
 * against "net-next".
 *
 * The RX allocator runs as a page_pool runs a provider: netmems come out of
 * the pool's alloc cache while it has some; an empty cache is refilled by
 * the provider's alloc_netmems (the tree's real bulk pop off the freelist,
 * which leaves the rest in the cache); a freed netmem goes back through the
 * provider's release_netmem (the real push).  The pool is the one the fake
 * driver built when the queue was bound.
 */
#include "devmem.c"

#define NIOV_K_TX_ERA 1
#define NIOV_K_SHIFT_ERA 1
#define NIOV_K_TABLE NIOV_K_AREA_FROM_SIZE	/* one area, sized from the dmabuf */
#define NIOV_K_NIOV_BACKED(niov)	(net_iov_owner(niov) != NULL)
#include "adapter.h"
#include "pp_init.h"
#include "tx_common.h"

/* One area for the whole dmabuf, its base at offset 0. */
static void niov_k_map(struct niov_k_binding *kb)
{
	if (!niov_k_add_array(kb, kb->b->area.niovs, kb->b->area.num_niovs, 0))
		niov_libc_report("out of memory mapping the niov table");
	niov_k_number_arrays(kb);
	kb->niov_shift = kb->b->niov_shift;
}

/* The page_pool bind-to-queue made the driver build for the binding's queue. */
static struct page_pool *niov_k_rx_pool(const struct niov_k_binding *kb)
{
	return __netif_get_rx_queue(niov_k_netdev(), kb->rxq)->page_pool;
}

struct niov_k_freelist_alloc_call {
	struct page_pool *pool;
	netmem_ref netmem;
};

static long niov_k_freelist_alloc_guarded(void *arg)
{
	struct niov_k_freelist_alloc_call *c = arg;

	if (c->pool->alloc.count)
		c->netmem = c->pool->alloc.cache[--c->pool->alloc.count];
	else
		c->netmem = c->pool->mp_ops->alloc_netmems(c->pool, GFP_ATOMIC);
	return 0;
}

static int niov_k_op_rx_alloc(void *binding, uint64_t *idx, uint64_t *virt, uint64_t *dma)
{
	struct niov_k_binding *kb = binding;
	struct niov_k_freelist_alloc_call c = { .pool = niov_k_rx_pool(kb) };
	struct net_iov *niov;

	niov_k_configure(&kb->cfg);
	if (kb->dir != NIOV_DIR_RX || !c.pool || c.pool->mp_priv != kb->b)
		return -ENOMEM;	/* no RX queue bound to this binding */
	if (niov_k_guarded(niov_k_freelist_alloc_guarded, &c, NIOV_K_EBUG) == NIOV_K_EBUG)
		return NIOV_K_EBUG;
	if (!c.netmem)
		return -ENOMEM;
	niov_k_res.niov_refs++;
	niov = niov_k_netmem_niov(c.netmem);
	*idx = niov_k_index(kb, niov);
	if (*idx == NIOV_K_FOREIGN_NIOV) {
		/* not one of the table's: say so, touch nothing of it */
		*virt = *dma = 0;
		return 0;
	}
	*virt = net_iov_virtual_addr(niov);
	*dma = netmem_get_dma_addr(c.netmem);
	return 0;
}

struct niov_k_freelist_free_call {
	struct page_pool *pool;
	struct net_iov *niov;
};

static long niov_k_freelist_free_guarded(void *arg)
{
	struct niov_k_freelist_free_call *c = arg;

	c->pool->mp_ops->release_netmem(c->pool, net_iov_to_netmem(c->niov));
	return 0;
}

static void niov_k_op_rx_free(void *binding, uint64_t idx)
{
	struct niov_k_binding *kb = binding;
	struct niov_k_freelist_free_call c = { .pool = niov_k_rx_pool(kb), .niov = niov_k_niov(kb, idx) };

	niov_k_configure(&kb->cfg);
	niov_k_res.niov_refs--;
	if (!c.niov || !c.pool || c.pool->mp_priv != kb->b) {
		niov_libc_report("rx_free of niov %llu, not handed out by this binding's pool",
				 (unsigned long long)idx);
		return;
	}
	(void)niov_k_guarded(niov_k_freelist_free_guarded, &c, NIOV_K_EBUG);
}

static const struct niov_impl_ops shift_freelist_ops = {
	NIOV_K_COMMON_OPS,
	NIOV_K_TX_OPS
	.name = "kernel-shift-freelist",
	.description = "the tree's own devmem.c and TX fill: niov_shift bind, freelist area (net-next 2026)",
	.caps = NIOV_CAP_TX | NIOV_CAP_RX | NIOV_CAP_RX_BUF_SIZE | NIOV_CAP_LOOKUP | NIOV_K_FILL_CAPS |
		NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_FAULTS,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &shift_freelist_ops;
}
