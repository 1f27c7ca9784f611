// SPDX-License-Identifier: GPL-2.0
/*
 * net_next.c - preset "net-next": devmem in net-next before seed 000.
 *
 * bind-rx takes NETDEV_A_DMABUF_RX_BUF_SIZE; the binding is the freelist
 * one (address and length checked per sg entry, size checked for both
 * directions, -E2BIG for too many niovs).  TX still uses PAGE_SIZE niovs:
 * bind-tx passes PAGE_SHIFT, the lookup is page-granular and every TX frag
 * charges PAGE_SIZE.  Nothing clamps a frag to what the device can send.
 */
#include "devmem_common.h"

static struct net_devmem_dmabuf_binding *
net_devmem_bind_dmabuf(const struct niov_impl_config *cfg,
		       const struct niov_bind_args *args,
		       enum dma_data_direction direction, unsigned int niov_shift)
{
	struct net_devmem_dmabuf_binding *binding;
	size_t niov_size = 1UL << niov_shift;
	struct scatterlist *sg;
	struct dma_buf *dmabuf;
	unsigned int sg_idx;
	size_t niov_idx;
	size_t i;
	long err;

	binding = net_devmem_binding_alloc(cfg, args, direction);
	if (IS_ERR(binding))
		return binding;
	dmabuf = binding->dmabuf;
	binding->niov_shift = niov_shift;

	if (!IS_ALIGNED(dmabuf->size, niov_size)) {
		err = -EINVAL;
		NL_SET_ERR_MSG(args, "dmabuf size not aligned to niov size");
		goto err_free;
	}

	if ((dmabuf->size >> niov_shift) > U32_MAX) {
		err = -E2BIG;
		NL_SET_ERR_MSG(args, "dmabuf contains too many net_iovs");
		goto err_free;
	}
	binding->area.num_niovs = dmabuf->size >> niov_shift;

	if (direction == DMA_TO_DEVICE) {
		binding->tx_vec = net_devmem_table_alloc(binding->area.num_niovs,
							 sizeof(struct net_iov *));
		if (!binding->tx_vec) {
			err = -ENOMEM;
			goto err_free;
		}
	}

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

		if (!IS_ALIGNED(dma, niov_size) || !IS_ALIGNED(len, niov_size)) {
			err = -EINVAL;
			NL_SET_ERR_MSG(args, "dmabuf sg entry not aligned to niov size");
			goto err_free;
		}

		for (i = 0; i < len >> niov_shift; i++) {
			struct net_iov *niov;

			/*
			 * The kernel trusts the sg entries to add up to the
			 * dmabuf size and would write past area.niovs and
			 * tx_vec here; stop creating, keep validating.
			 */
			if (niov_idx >= binding->area.num_niovs)
				break;

			niov = &binding->area.niovs[niov_idx];
			if (net_mp_niov_set_dma_addr(niov, dma)) {
				err = -EFAULT;
				goto err_free;
			}
			if (direction == DMA_TO_DEVICE)
				binding->tx_vec[niov_idx] = niov;
			dma += niov_size;
			niov_idx++;
		}
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
	unsigned int niov_shift = PAGE_SHIFT;

	if (args->has_rx_buf_size) {
		u32 rx_buf_size = args->rx_buf_size;

		/* checked before any device lookup */
		if (!rx_buf_size || !is_power_of_2(rx_buf_size) ||
		    rx_buf_size < PAGE_SIZE)
			return ERR_PTR(-EINVAL);
		niov_shift = ilog2(rx_buf_size);
	}

	return net_devmem_bind_dmabuf(cfg, args, DMA_FROM_DEVICE, niov_shift);
}

static struct net_devmem_dmabuf_binding *
netdev_nl_bind_tx_doit(const struct niov_impl_config *cfg, const struct niov_bind_args *args)
{
	/* not in the bind-tx policy: strict validation rejects it */
	if (args->has_rx_buf_size)
		return ERR_PTR(-EINVAL);

	return net_devmem_bind_dmabuf(cfg, args, DMA_TO_DEVICE, PAGE_SHIFT);
}

/* Page-granular even though the binding has a niov_shift: TX is PAGE_SIZE. */
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

static int mp_dmabuf_devmem_init(const struct net_devmem_dmabuf_binding *binding,
				 u32 pp_order)
{
	if (!binding)
		return -EINVAL;

	/* the driver's page_pool must hand out whole niovs */
	if (pp_order != binding->niov_shift - PAGE_SHIFT)
		return -E2BIG;

	return 0;
}

static int net_next_bind(const struct niov_impl_config *cfg,
			 const struct niov_bind_args *args, void **binding)
{
	return devmem_op_bind(cfg, args, binding, netdev_nl_bind_rx_doit,
			      netdev_nl_bind_tx_doit);
}

static int net_next_get_niov_at(const void *binding, u64 virt, u64 *idx, u64 *off,
				u64 *size)
{
	return devmem_op_get_niov_at(binding, virt, idx, off, size, net_devmem_get_niov_at);
}

static int net_next_fill(void *binding, struct niov_skb *skb, struct niov_iov_iter *iter,
			 int length)
{
	return devmem_op_fill(binding, skb, iter, length, zerocopy_fill_skb_from_devmem);
}

static int net_next_pp_init(const void *binding, u32 pp_order)
{
	return devmem_op_pp_init(binding, pp_order, mp_dmabuf_devmem_init);
}

static const struct niov_impl_ops net_next_ops = {
	.abi_version = NIOV_IMPL_ABI_VERSION,
	.name = "net-next",
	.description = "net-next before seed 000: freelist bind, rx-buf-size, PAGE_SIZE TX niovs",
	.bind = net_next_bind,
	.unbind = devmem_op_unbind,
	.niov_shift = devmem_op_niov_shift,
	.num_niovs = devmem_op_num_niovs,
	.niov_dma_addr = devmem_op_niov_dma_addr,
	.get_niov_at = net_next_get_niov_at,
	.fill = net_next_fill,
	.pp_init = net_next_pp_init,
	.zcrx_validate = devmem_op_zcrx_validate,
	.encode_tx_desc = devmem_op_encode_tx_desc,
	.must_catch = NULL,
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
	.rules = "net-next",
	.zcrx_register = devmem_op_zcrx_register_std,
	DEVMEM_V2_OPS,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &net_next_ops;
}
