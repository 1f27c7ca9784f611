// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c - preset "baseline": the gen_pool-era devmem (about v6.18,
 * with the 2026 stable fix that rejects TX dmabufs and sg entries which
 * are not PAGE_SIZE multiples).
 *
 * There is no rx-buf-size attribute: every niov is PAGE_SIZE.  Only TX
 * checks the dmabuf size, the sg entries are checked by length only (their
 * addresses go into a gen_pool as they are), and nothing counts niovs
 * against U32_MAX.  TX looks niovs up by page, charges PAGE_SIZE per frag
 * and never clamps a frag to the device.
 */
#include "devmem_common.h"

/*
 * baseline_unfixed.c and linux_6_12.c compile this file again for the
 * eras before the fix: BASELINE_UNFIXED drops the size and sg length
 * checks (each sg entry then holds len / PAGE_SIZE niovs), BASELINE_RX_ONLY
 * is 6.12, which has no bind-tx and no io_uring zcrx and whose scatterlist
 * keeps a u32 dma_length.
 */
#ifndef BASELINE_NAME
#define BASELINE_NAME	"baseline"
#define BASELINE_RULES	"baseline"
#define BASELINE_DESC	"gen_pool-era devmem: PAGE_SIZE niovs, length-only sg check, " \
			"TX-only size check, no rx-buf-size"
#endif
#ifdef BASELINE_UNFIXED
#define BASELINE_CHECKED	false
#else
#define BASELINE_CHECKED	true
#endif
#ifdef BASELINE_RX_ONLY
#define BASELINE_CAPS	(NIOV_CAP_RX | NIOV_CAP_PP_INIT | DEVMEM_V2_CAPS)
#else
#define BASELINE_CAPS	(NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS)
#endif

/*
 * One gen_pool chunk per sg entry.  The kernel gives each chunk its own
 * niov array; here the chunk is a window of the binding's one table,
 * starting at niov index base_idx (base_virtual / PAGE_SIZE, counted rather
 * than summed so that a wrapping sum of lengths cannot alias earlier
 * niovs).
 */
struct dmabuf_genpool_chunk_owner {
	size_t base_idx;
	size_t num_niovs;
	dma_addr_t base_dma_addr;
};

static dma_addr_t net_devmem_get_dma_addr(const struct dmabuf_genpool_chunk_owner *owner,
					  size_t idx)
{
	return owner->base_dma_addr + ((dma_addr_t)idx << PAGE_SHIFT);
}

static struct net_devmem_dmabuf_binding *
net_devmem_bind_dmabuf(const struct niov_impl_config *cfg,
		       const struct niov_bind_args *args,
		       enum dma_data_direction direction)
{
	struct dmabuf_genpool_chunk_owner owner;
	struct net_devmem_dmabuf_binding *binding;
	struct scatterlist *sg;
	struct dma_buf *dmabuf;
	unsigned int sg_idx;
	size_t niov_idx, tx_idx;
	size_t virtual = 0;
	size_t i;
	long err;

	binding = net_devmem_binding_alloc(cfg, args, direction);
	if (IS_ERR(binding))
		return binding;
	dmabuf = binding->dmabuf;
	binding->niov_shift = PAGE_SHIFT;
	binding->rx_genpool = true;
	binding->area.num_niovs = dmabuf->size / PAGE_SIZE;
	if (!BASELINE_CHECKED || direction == DMA_FROM_DEVICE) {
		/*
		 * The chunks hold whole pages of each sg entry, nothing else;
		 * only TX's tx_vec is sized from the dmabuf (since the fix).
		 */
		binding->area.num_niovs = 0;
		for_each_sgtable_dma_sg(binding->sgt, sg, sg_idx)
			binding->area.num_niovs += sg_dma_len(sg) / PAGE_SIZE;
	}

	if (direction == DMA_TO_DEVICE) {
		if (BASELINE_CHECKED && !PAGE_ALIGNED(dmabuf->size)) {
			err = -EINVAL;
			NL_SET_ERR_MSG(args, "tx dmabuf size is not a multiple of PAGE_SIZE");
			goto err_free;
		}

		binding->tx_vec = net_devmem_table_alloc(dmabuf->size / PAGE_SIZE,
							 sizeof(struct net_iov *));
		if (!binding->tx_vec) {
			err = -ENOMEM;
			goto err_free;
		}
	}

	/*
	 * The kernel allocates the niovs chunk by chunk inside the loop below;
	 * the rules fail a table too large for kvmalloc before any sg entry is
	 * looked at, RX included.
	 */
	binding->area.niovs = net_devmem_table_alloc(binding->area.num_niovs,
						     sizeof(struct net_iov));
	if (!binding->area.niovs) {
		err = -ENOMEM;
		goto err_free;
	}

	niov_idx = 0;
	for_each_sgtable_dma_sg(binding->sgt, sg, sg_idx) {
		dma_addr_t dma = sg_dma_address(sg);
		size_t len = sg_dma_len(sg);

		/* the length must be whole pages; the address is not looked at */
		if (BASELINE_CHECKED && !IS_ALIGNED(len, PAGE_SIZE)) {
			err = -EINVAL;
			NL_SET_ERR_MSG(args, "dmabuf sg entry length is not a multiple of PAGE_SIZE");
			goto err_free;
		}

		owner.base_idx = niov_idx;
		owner.base_dma_addr = dma;
		owner.num_niovs = len / PAGE_SIZE;

		for (i = 0; i < owner.num_niovs; i++) {
			struct net_iov *niov;

			/*
			 * tx_vec holds dmabuf->size / PAGE_SIZE entries and
			 * the kernel would write past it when the sg entries
			 * outgrow the dmabuf; stop creating, keep validating.
			 */
			if (owner.base_idx + i >= binding->area.num_niovs)
				break;

			niov = &binding->area.niovs[owner.base_idx + i];
			net_mp_niov_set_dma_addr(niov, net_devmem_get_dma_addr(&owner, i));
			/*
			 * tx_vec is indexed by dmabuf offset (base_virtual), the
			 * table by niov: the same unless an sg entry was not
			 * whole pages.  Never past tx_vec's size / PAGE_SIZE.
			 */
			tx_idx = virtual / PAGE_SIZE + i;
			if (direction == DMA_TO_DEVICE && tx_idx < dmabuf->size / PAGE_SIZE)
				binding->tx_vec[tx_idx] = niov;
			niov_idx++;
		}
		virtual += len;
	}
	binding->niovs_init = niov_idx;

	return binding;

err_free:
	net_devmem_binding_free(binding);
	return ERR_PTR(err);
}

static struct net_devmem_dmabuf_binding *
netdev_nl_bind_rx_doit(const struct niov_impl_config *cfg, const struct niov_bind_args *args)
{
	/* no NETDEV_A_DMABUF_RX_BUF_SIZE in this kernel: unknown attribute */
	if (args->has_rx_buf_size)
		return ERR_PTR(-EINVAL);

	return net_devmem_bind_dmabuf(cfg, args, DMA_FROM_DEVICE);
}

static struct net_devmem_dmabuf_binding *
netdev_nl_bind_tx_doit(const struct niov_impl_config *cfg, const struct niov_bind_args *args)
{
#ifdef BASELINE_RX_ONLY
	(void)cfg;
	(void)args;
	return ERR_PTR(-EOPNOTSUPP);	/* genetlink: no such command */
#endif
	if (args->has_rx_buf_size)
		return ERR_PTR(-EINVAL);

	return net_devmem_bind_dmabuf(cfg, args, DMA_TO_DEVICE);
}

static niov_ref_t
net_devmem_get_niov_at(const struct net_devmem_dmabuf_binding *binding,
		       size_t virt_addr, size_t *off, size_t *size)
{
	if (virt_addr >= binding->dmabuf->size)
		return NIOV_NULL;

	*off = virt_addr % PAGE_SIZE;
	*size = PAGE_SIZE - *off;

	return net_devmem_tx_vec(binding, virt_addr / PAGE_SIZE);
}

static int zerocopy_fill_skb_from_devmem(struct sk_buff *skb, struct iov_iter *from,
					 int length,
					 const struct net_devmem_dmabuf_binding *binding)
{
	int i = skb_shinfo(skb)->nr_frags;
	size_t virt_addr, size, off;
	niov_ref_t niov;

	while (length && iov_iter_count(from)) {
		if (i == MAX_SKB_FRAGS)
			return -EMSGSIZE;

		virt_addr = (size_t)iter_iov_addr(from);
		niov = net_devmem_get_niov_at(binding, virt_addr, &off, &size);
		if (niov == NIOV_NULL)
			return -EFAULT;

		size = min_t(size_t, size, length);
		size = min_t(size_t, size, iter_iov_len(from));

		skb_add_rx_frag_netmem(skb, i, niov, off, size, PAGE_SIZE);
		iov_iter_advance(from, size);
		length -= size;
		i++;
	}

	return 0;
}

/*
 * Before rx-buf-size every niov is a page, so the pool must be order 0
 * (the same as niov_shift - PAGE_SHIFT, which is always 0 here).
 */
static int mp_dmabuf_devmem_init(const struct net_devmem_dmabuf_binding *binding,
				 u32 pp_order)
{
	if (!binding)
		return -EINVAL;

	if (pp_order != 0)
		return -E2BIG;

	return 0;
}

static int baseline_bind(const struct niov_impl_config *cfg,
			 const struct niov_bind_args *args, void **binding)
{
#ifdef BASELINE_RX_ONLY
	u32 i;

	/* 6.12's scatterlist: the DMA length is an unsigned int */
	for (i = 0; i < args->nr_segs; i++)
		if (args->segs[i].len > U32_MAX)
			return NIOV_E_NOT_REPRESENTABLE;
#endif
	return devmem_op_bind(cfg, args, binding, netdev_nl_bind_rx_doit,
			      netdev_nl_bind_tx_doit);
}

static int baseline_get_niov_at(const void *binding, u64 virt, u64 *idx, u64 *off,
				u64 *size)
{
	return devmem_op_get_niov_at(binding, virt, idx, off, size, net_devmem_get_niov_at);
}

static int baseline_fill(void *binding, struct niov_skb *skb, struct niov_iov_iter *iter,
			 int length)
{
	return devmem_op_fill(binding, skb, iter, length, zerocopy_fill_skb_from_devmem);
}

static int baseline_pp_init(const void *binding, u32 pp_order)
{
	return devmem_op_pp_init(binding, pp_order, mp_dmabuf_devmem_init);
}

static const struct niov_impl_ops baseline_ops = {
	.abi_version = NIOV_IMPL_ABI_VERSION,
	.name = BASELINE_NAME,
	.description = BASELINE_DESC,
	.bind = baseline_bind,
	.unbind = devmem_op_unbind,
	.niov_shift = devmem_op_niov_shift,
	.num_niovs = devmem_op_num_niovs,
	.niov_dma_addr = devmem_op_niov_dma_addr,
	.get_niov_at = baseline_get_niov_at,
	.fill = baseline_fill,
	.pp_init = baseline_pp_init,
	.zcrx_validate = devmem_op_zcrx_validate,
	.encode_tx_desc = devmem_op_encode_tx_desc,
	.must_catch = NULL,
	.caps = BASELINE_CAPS,
	.rules = BASELINE_RULES,
	.zcrx_register = devmem_op_zcrx_register_std,
	DEVMEM_V2_OPS,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &baseline_ops;
}
