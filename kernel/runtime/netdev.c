// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - one fake net_device with sixteen rx queues and a driver whose
 * queue restart builds a page_pool for the queue's memory provider and
 * runs the provider's init (so the order check the suite sees is the
 * code's own mp_dmabuf_devmem_init), plus the memory-provider plumbing of
 * netdev_rx_queue.c and page_pool.c that devmem calls in every era.
 * Restarts fail on demand (NIOV_FAULT_QUEUE_RESTART).  Driver-side memory
 * is the runtime's (libc), not counted as the code's.
 */
/*
 * The tree's headers declare the calls this file defines, with the types of
 * their day (a bool or void return, const or not).  Their declarations are
 * renamed away so only the definitions below count; the call sites in the
 * tree's devmem.c see their own header.
 */
#define __net_mp_open_rxq		niov_k_tree___net_mp_open_rxq
#define __net_mp_close_rxq		niov_k_tree___net_mp_close_rxq
#define netif_mp_open_rxq		niov_k_tree_netif_mp_open_rxq
#define netif_mp_close_rxq		niov_k_tree_netif_mp_close_rxq
#define net_mp_niov_set_dma_addr	niov_k_tree_net_mp_niov_set_dma_addr
#define net_mp_niov_set_page_pool	niov_k_tree_net_mp_niov_set_page_pool
#define net_mp_niov_clear_page_pool	niov_k_tree_net_mp_niov_clear_page_pool
#include <net/netmem.h>
#ifndef NIOV_K_NO_MP_OPS
#include <net/page_pool/memory_provider.h>
#endif
#undef __net_mp_open_rxq
#undef __net_mp_close_rxq
#undef netif_mp_open_rxq
#undef netif_mp_close_rxq
#undef net_mp_niov_set_dma_addr
#undef net_mp_niov_set_page_pool
#undef net_mp_niov_clear_page_pool

#include "runtime.h"
#include "libc_bridge.h"

/* one queue per binding alive at once (NIOV_K_MAX_LIVE), so no bind finds its queue taken */
#define NR_RXQ	16

static struct netdev_rx_queue rxqs[NR_RXQ];
static struct netdev_queue_mgmt_ops queue_ops;
/* header/data split on, threshold 0: what devmem RX needs (6.14 checks it) */
static struct netdev_config netdev_cfg = { .hds_config = ETHTOOL_TCP_DATA_SPLIT_ENABLED };
static struct net_device netdev = {
	.name = "niov0",
	.ifindex = 1,
	.num_rx_queues = NR_RXQ,
	.real_num_rx_queues = NR_RXQ,
	._rx = rxqs,
	.queue_mgmt_ops = &queue_ops,
	.cfg = &netdev_cfg,
	.netmem_tx = true,
	.up = true,
};
static struct device dma_device = { .name = "niov-dma" };
static unsigned int default_order;

/*
 * The drivers' own limits on an rx buffer size (the suite's device table):
 * bnxt's RX BD length is 16 bits (2^k up to 32 KiB, from min(PAGE_SIZE,
 * 32 KiB)); the others take up to PAGE_SIZE << MAX_PAGE_ORDER.
 */
static bool niov_k_driver_takes(u32 size)
{
	if (niov_k_device == NIOV_DEV_BNXT)
		return size >= (1u << min_t(u32, PAGE_SHIFT, 15)) && size <= SZ_32K;
	return (u64)size <= ((u64)PAGE_SIZE << MAX_PAGE_ORDER);
}

struct net_device *niov_k_netdev(void)
{
	unsigned int i;

	netdev.dev.parent = &dma_device;
	for (i = 0; i < NR_RXQ; i++)
		rxqs[i].dev = &netdev;
	return &netdev;
}

void niov_k_netdev_setup(unsigned int order, bool rx_page_size_ok)
{
	default_order = order;
	/* gve and fbnic have no rx buffer size support */
	if (niov_k_device == NIOV_DEV_GVE || niov_k_device == NIOV_DEV_FBNIC)
		rx_page_size_ok = false;
	queue_ops.supported_params = rx_page_size_ok ? QCFG_RX_PAGE_SIZE : 0;
	niov_k_netdev();
	/* what the driver set at probe time; the bind copies it (2026 on) */
	netdev.netmem_tx_max_frag_size = niov_k_dev_tx_max_frag_size;
}

struct page_pool *niov_k_page_pool_create(struct netdev_rx_queue *rxq,
					  const struct pp_memory_provider_params *params,
					  unsigned int order)
{
	struct page_pool *pool;
	int err;

	pool = niov_libc_malloc(sizeof(*pool));
	if (!pool)
		return ERR_PTR(-ENOMEM);
	niov_libc_memzero(pool, sizeof(*pool));
	pool->p.order = order;
	pool->p.netdev = &netdev;
	pool->p.dev = netdev.dev.parent;
	pool->p.dma_dir = DMA_FROM_DEVICE;
	pool->p.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV | PP_FLAG_ALLOW_UNREADABLE_NETMEM;
	pool->dma_map = true;
#ifdef NIOV_K_NO_MP_OPS
	/* The provider of that era refused a pool that syncs for the device:
	 * a driver devmem worked with did not ask for it. */
	pool->p.flags &= ~PP_FLAG_DMA_SYNC_DEV;
#else
	pool->dma_sync = true;
#endif
	pool->rxq = rxq;
	pool->mp_priv = params->mp_priv;
	pool->mp_ops = params->mp_ops;
	if (pool->mp_ops && pool->mp_ops->init) {
		err = pool->mp_ops->init(pool);
		if (err) {
			niov_libc_free(pool);
			return ERR_PTR(err);
		}
		pool->has_init_callback = true;
	}
	return pool;
}

/*
 * page_pool_destroy() as far as a provider sees it: the netmems still in
 * the pool's alloc cache (a bulk provider leaves them there) go back
 * through the provider's release, then its destroy runs.
 */
void niov_k_page_pool_destroy(struct page_pool *pool)
{
	if (!pool)
		return;
	while (pool->alloc.count && pool->mp_ops && pool->mp_ops->release_netmem)
		pool->mp_ops->release_netmem(pool, pool->alloc.cache[--pool->alloc.count]);
	if (pool->has_init_callback && pool->mp_ops && pool->mp_ops->destroy)
		pool->mp_ops->destroy(pool);
	niov_libc_free(pool);
}

#ifdef NIOV_K_NO_MP_OPS
/* The tree's devmem.c defines these; its mp_dmabuf_devmem.h declares them. */
int mp_dmabuf_devmem_init(struct page_pool *pool);
unsigned long mp_dmabuf_devmem_alloc_netmems(struct page_pool *pool, gfp_t gfp);
void mp_dmabuf_devmem_destroy(struct page_pool *pool);
bool mp_dmabuf_devmem_release_page(struct page_pool *pool, unsigned long netmem);

const struct memory_provider_ops niov_k_mp_direct_ops = {
	.alloc_netmems = mp_dmabuf_devmem_alloc_netmems,
	.release_netmem = mp_dmabuf_devmem_release_page,
	.init = mp_dmabuf_devmem_init,
	.destroy = mp_dmabuf_devmem_destroy,
};
#endif

/*
 * The provider a queue's page_pool runs: its table, or before the tables
 * existed, devmem's own functions whenever the queue holds a binding.
 */
static const struct memory_provider_ops *queue_provider(const struct netdev_rx_queue *rxq)
{
#ifdef NIOV_K_NO_MP_OPS
	return rxq->mp_params.mp_priv ? &niov_k_mp_direct_ops : NULL;
#else
	return rxq->mp_params.mp_ops;
#endif
}

static unsigned int queue_order(const struct netdev_rx_queue *rxq)
{
	if (rxq->mp_params.rx_page_size)
		return (unsigned int)get_order(rxq->mp_params.rx_page_size);
	return default_order;
}

/* The driver's restart: the new memory first, the old freed only once it worked. */
int netdev_rx_queue_restart(struct net_device *dev, unsigned int rxq_idx)
{
	struct netdev_rx_queue *rxq = &dev->_rx[rxq_idx];
	const struct memory_provider_ops *ops = queue_provider(rxq);
	struct page_pool *pool = NULL;

	if (niov_k_fault_hit(NIOV_FAULT_QUEUE_RESTART))
		return -ENOMEM;
	if (ops) {
		struct pp_memory_provider_params params = rxq->mp_params;

		params.mp_ops = ops;
		pool = niov_k_page_pool_create(rxq, &params, queue_order(rxq));
		if (IS_ERR(pool))
			return (int)PTR_ERR(pool);
	}
	niov_k_page_pool_destroy(rxq->page_pool);
	rxq->page_pool = pool;
	return 0;
}

/* netdev_rx_queue.c's open/close of a provider on a queue (6.15 on). */
int __net_mp_open_rxq(struct net_device *dev, unsigned int rxq_idx,
		      const struct pp_memory_provider_params *p,
		      struct netlink_ext_ack *extack)
{
	struct netdev_rx_queue *rxq;
	int err;

	if (rxq_idx >= dev->real_num_rx_queues) {
		NL_SET_ERR_MSG(extack, "rx queue index out of range");
		return -ERANGE;
	}
	if (p->rx_page_size && !(dev->queue_mgmt_ops->supported_params & QCFG_RX_PAGE_SIZE)) {
		NL_SET_ERR_MSG(extack, "device does not support: rx_page_size");
		return -EOPNOTSUPP;
	}
	if (p->rx_page_size && !niov_k_driver_takes(p->rx_page_size)) {
		NL_SET_ERR_MSG(extack, "rx_page_size out of the driver's range");
		return -ERANGE;
	}
	rxq = __netif_get_rx_queue(dev, rxq_idx);
	if (rxq->mp_params.mp_ops) {
		NL_SET_ERR_MSG(extack, "designated queue already memory provider bound");
		return -EEXIST;
	}
	rxq->mp_params = *p;
	err = netdev_rx_queue_restart(dev, rxq_idx);
	if (err) {
		rxq->mp_params.mp_ops = NULL;
		rxq->mp_params.mp_priv = NULL;
		rxq->mp_params.rx_page_size = 0;
	}
	return err;
}

void __net_mp_close_rxq(struct net_device *dev, unsigned int rxq_idx,
			const struct pp_memory_provider_params *old_p)
{
	struct netdev_rx_queue *rxq;
	int err;

	if (WARN_ON_ONCE(rxq_idx >= dev->real_num_rx_queues))
		return;
	rxq = __netif_get_rx_queue(dev, rxq_idx);
	if (WARN_ON_ONCE(rxq->mp_params.mp_ops != old_p->mp_ops ||
			 rxq->mp_params.mp_priv != old_p->mp_priv))
		return;
	rxq->mp_params.mp_ops = NULL;
	rxq->mp_params.mp_priv = NULL;
	rxq->mp_params.rx_page_size = 0;
	err = netdev_rx_queue_restart(dev, rxq_idx);
	WARN_ON(err && err != -ENETDOWN);
}

/* The 2026 names of the same calls. */
int netif_mp_open_rxq(struct net_device *dev, unsigned int rxq_idx,
		      const struct pp_memory_provider_params *p,
		      struct netlink_ext_ack *extack)
{
	return __net_mp_open_rxq(dev, rxq_idx, p, extack);
}

void netif_mp_close_rxq(struct net_device *dev, unsigned int rxq_idx,
			const struct pp_memory_provider_params *old_p)
{
	__net_mp_close_rxq(dev, rxq_idx, old_p);
}

/* page_pool.c's bookkeeping of provider-owned netmem. */
void page_pool_set_pp_info(struct page_pool *pool, unsigned long netmem)
{
	struct net_iov *niov = niov_k_netmem_niov(netmem);

	NIOV_K_NIOV(niov, pp) = pool;
	NIOV_K_NIOV(niov, pp_magic) |= PP_SIGNATURE;
	atomic_long_set(&NIOV_K_NIOV(niov, pp_ref_count), 1);
}

void page_pool_clear_pp_info(unsigned long netmem)
{
	struct net_iov *niov = niov_k_netmem_niov(netmem);

	NIOV_K_NIOV(niov, pp_magic) = 0;
	NIOV_K_NIOV(niov, pp) = NULL;
}

/* bool in 2026 trees, void before: a bool return serves both callers. */
bool net_mp_niov_set_dma_addr(struct net_iov *niov, dma_addr_t addr)
{
	NIOV_K_NIOV(niov, dma_addr) = addr;
	return false;	/* 64-bit: always representable */
}

void net_mp_niov_set_page_pool(struct page_pool *pool, struct net_iov *niov)
{
	page_pool_set_pp_info(pool, (unsigned long)niov | 1UL);
	pool->pages_state_hold_cnt++;
}

void net_mp_niov_clear_page_pool(struct net_iov *niov)
{
	struct page_pool *pool = NIOV_K_NIOV(niov, pp);

	page_pool_clear_pp_info((unsigned long)niov | 1UL);
	if (pool)
		atomic_inc(&pool->pages_state_release_cnt);
}
