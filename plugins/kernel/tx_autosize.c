// SPDX-License-Identifier: GPL-2.0
/*
 * tx_autosize.c - preset "tx-autosize": net-next with all of seed 000.
 *
 *  - patch 2: a TX frag charges its length to truesize, not PAGE_SIZE;
 *  - patch 3: net_devmem_get_niov_at() works in niov_shift units;
 *  - patch 4/5: frags are clamped to the device's netmem TX frag size
 *    (cfg->dev_tx_max_frag_size, 32K for bnxt), read at bind time;
 *  - patch 6: bind-tx passes niov_shift 0 and the bind picks the largest
 *    power of two up to 2M that aligns the dmabuf size and every sg
 *    entry's address and length.
 *
 * plugins/broken/ compiles this file again with one slip each: a variant
 * defines one of the hooks below, and its name, before including it.
 */
#include "devmem_common.h"

#ifndef NIOV_PLUGIN_NAME
#define NIOV_PLUGIN_NAME	"tx-autosize"
#define NIOV_PLUGIN_DESC	"seed 000 complete: TX niovs sized from the sg table, " \
				"niov_shift lookup, truesize = frag length, device max frag"
#define NIOV_PLUGIN_MUST_CATCH	NULL
#endif
#ifndef NIOV_PLUGIN_POLICY
#define NIOV_PLUGIN_POLICY	NULL
#endif
/* The ABI version the ops table says it has (the loader's tests change it). */
#ifndef NIOV_PLUGIN_ABI_VERSION
#define NIOV_PLUGIN_ABI_VERSION	NIOV_IMPL_ABI_VERSION
#endif

/*
 * The bind's checks: does an sg entry fit niovs of @size (asked by the
 * sizing loop and the bind loop alike), is the dmabuf size checked in
 * this direction, is the niov count limited.  NET_DEVMEM_GENPOOL_BASE
 * puts patch 6 on the gen_pool-era bind instead of the freelist one.
 */
#ifdef NET_DEVMEM_GENPOOL_BASE
/* gen_pool era: entries by length only, TX-only size check, no count limit */
#define NET_DEVMEM_SG_ALIGNED(dma, len, size)	IS_ALIGNED(len, size)
#define NET_DEVMEM_SIZE_CHECKED(direction)	((direction) == DMA_TO_DEVICE)
#define NET_DEVMEM_COUNT_CHECKED		false
#endif
#ifndef NET_DEVMEM_SG_ALIGNED
#define NET_DEVMEM_SG_ALIGNED(dma, len, size) \
	(IS_ALIGNED(dma, size) && IS_ALIGNED(len, size))
#endif
#ifndef NET_DEVMEM_SIZE_CHECKED
#define NET_DEVMEM_SIZE_CHECKED(direction)	true
#endif
#ifndef NET_DEVMEM_COUNT_CHECKED
#define NET_DEVMEM_COUNT_CHECKED		true
#endif

/* The error a misaligned dmabuf size gets. */
#ifndef NET_DEVMEM_SIZE_ERRNO
#define NET_DEVMEM_SIZE_ERRNO	(-EINVAL)
#endif

/* The granularity of net_devmem_get_niov_at() (patch 3). */
#ifndef NET_DEVMEM_LOOKUP_SHIFT
#define NET_DEVMEM_LOOKUP_SHIFT(binding)	((binding)->niov_shift)
#endif

/* Is @virt past the end of the dmabuf (the lookup's bound)? */
#ifndef NET_DEVMEM_PAST_END
#define NET_DEVMEM_PAST_END(virt, size)	((virt) >= (size))
#endif

/* The offset of @virt inside its niov of @niov_size bytes. */
#ifndef NET_DEVMEM_NIOV_OFF
#define NET_DEVMEM_NIOV_OFF(virt, niov_size, binding)	((virt) & ((niov_size) - 1))
#endif

/* The fill's clamps to the bytes left to send and to the iov element. */
#ifndef DEVMEM_TX_LENGTH_CLAMP
#define DEVMEM_TX_LENGTH_CLAMP(size, length)	min_t(size_t, size, length)
#endif
#ifndef DEVMEM_TX_IOV_CLAMP
#define DEVMEM_TX_IOV_CLAMP(size, from)	min_t(size_t, size, iter_iov_len(from))
#endif

/* The RFC refused empty frags; the merged code lets them through. */
#ifndef DEVMEM_TX_REFUSE_EMPTY
#define DEVMEM_TX_REFUSE_EMPTY	false
#endif

/* The page_pool order the memory provider accepts. */
#ifndef MP_DEVMEM_PP_ORDER
#define MP_DEVMEM_PP_ORDER(binding)	((binding)->niov_shift - PAGE_SHIFT)
#endif

/* How the device's descriptors carry a frag (common/tx_desc.c). */
#ifndef DEVMEM_TX_ENCODE_OP
#define DEVMEM_TX_ENCODE_OP	devmem_op_encode_tx_desc
#endif

/* What a TX frag of @size bytes charges (patch 2). */
#ifndef DEVMEM_TX_TRUESIZE
#define DEVMEM_TX_TRUESIZE(size)	(size)
#endif

/* Where the TX sizing loop starts: the largest TX niov (policy tx_niov_max). */
#ifndef NET_DEVMEM_TX_NIOV_MAX
#define NET_DEVMEM_TX_NIOV_MAX	SZ_2M
#endif
/*
 * ABI v2 hooks: what frag_release puts back, how a zcrx registration finds
 * the area's alignment, the RX allocator, the unwinding of a failed niov
 * table allocation, and the errno of a failed table allocation.
 */
#ifndef DEVMEM_FRAG_RELEASE_OP
#define DEVMEM_FRAG_RELEASE_OP	devmem_op_frag_release
#endif
#ifndef DEVMEM_ZCRX_AREA_SHIFT
#define DEVMEM_ZCRX_AREA_SHIFT	io_area_max_shift
#endif
#ifndef DEVMEM_RX_ALLOC_OP
#define DEVMEM_RX_ALLOC_OP	devmem_op_rx_alloc
#endif
#ifndef NET_DEVMEM_NIOVS_ENOMEM_UNWIND
#define NET_DEVMEM_NIOVS_ENOMEM_UNWIND(binding)	do { } while (0)
#endif
#ifndef NET_DEVMEM_TABLE_ENOMEM
#define NET_DEVMEM_TABLE_ENOMEM	(-ENOMEM)
#endif

/* The device's limit on one frag (patch 4). */
#ifndef DEVMEM_TX_CLAMP
#define DEVMEM_TX_CLAMP(size, binding) \
	min_t(size_t, size, (binding)->tx_max_frag_size)
#endif

/* What the fill returns when the skb has no frag slot left. */
#ifndef DEVMEM_TX_FRAGS_FULL_ERRNO
#define DEVMEM_TX_FRAGS_FULL_ERRNO	(-EMSGSIZE)
#endif

static bool net_devmem_sgt_aligned(const struct sg_table *sgt, size_t size)
{
	const struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (!NET_DEVMEM_SG_ALIGNED(sg_dma_address(sg), sg_dma_len(sg), size))
			return false;
	}
	return true;
}

/* niov_shift == 0 picks the net_iov size from the dmabuf, TX only */
static struct net_devmem_dmabuf_binding *
net_devmem_bind_dmabuf(const struct niov_impl_config *cfg,
		       const struct niov_bind_args *args,
		       enum dma_data_direction direction, unsigned int niov_shift)
{
	struct net_devmem_dmabuf_binding *binding;
	struct scatterlist *sg;
	struct dma_buf *dmabuf;
	unsigned int sg_idx;
	size_t niov_size;
	size_t niov_idx;
	size_t i;
	long err;

	binding = net_devmem_binding_alloc(cfg, args, direction);
	if (IS_ERR(binding))
		return binding;
	dmabuf = binding->dmabuf;
	binding->tx_max_frag_size = cfg->dev_tx_max_frag_size;

	if (!niov_shift) {
		niov_size = NET_DEVMEM_TX_NIOV_MAX;
		while (niov_size > PAGE_SIZE &&
		       (!IS_ALIGNED(dmabuf->size, niov_size) ||
			!net_devmem_sgt_aligned(binding->sgt, niov_size)))
			niov_size /= 2;
		niov_shift = ilog2(niov_size);
	}
	binding->niov_shift = niov_shift;
	niov_size = 1UL << niov_shift;

	if (NET_DEVMEM_SIZE_CHECKED(direction) && !IS_ALIGNED(dmabuf->size, niov_size)) {
		err = NET_DEVMEM_SIZE_ERRNO;
		NL_SET_ERR_MSG(args, "dmabuf size not aligned to niov size");
		goto err_free;
	}

	if (NET_DEVMEM_COUNT_CHECKED && (dmabuf->size >> niov_shift) > U32_MAX) {
		err = -E2BIG;
		NL_SET_ERR_MSG(args, "dmabuf contains too many net_iovs");
		goto err_free;
	}
	binding->area.num_niovs = dmabuf->size >> niov_shift;

	if (direction == DMA_TO_DEVICE) {
		binding->tx_vec = net_devmem_table_alloc(binding->area.num_niovs,
							 sizeof(struct net_iov *));
		if (!binding->tx_vec) {
			err = NET_DEVMEM_TABLE_ENOMEM;
			goto err_free;
		}
	}

	binding->area.niovs = net_devmem_table_alloc(binding->area.num_niovs,
						     sizeof(struct net_iov));
	if (!binding->area.niovs) {
		err = NET_DEVMEM_TABLE_ENOMEM;
		NET_DEVMEM_NIOVS_ENOMEM_UNWIND(binding);
		goto err_free;
	}

	niov_idx = 0;
	for_each_sgtable_dma_sg(binding->sgt, sg, sg_idx) {
		dma_addr_t dma = sg_dma_address(sg);
		size_t len = sg_dma_len(sg);

		if (!NET_DEVMEM_SG_ALIGNED(dma, len, niov_size)) {
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

	/* 0: let the bind size the niovs from the sg table (patch 6) */
	return net_devmem_bind_dmabuf(cfg, args, DMA_TO_DEVICE, 0);
}

static niov_ref_t
net_devmem_get_niov_at(const struct net_devmem_dmabuf_binding *binding,
		       size_t virt_addr, size_t *off, size_t *size)
{
	size_t niov_size = 1UL << NET_DEVMEM_LOOKUP_SHIFT(binding);

	if (NET_DEVMEM_PAST_END(virt_addr, binding->dmabuf->size))
		return NIOV_NULL;

	*off = NET_DEVMEM_NIOV_OFF(virt_addr, niov_size, binding);
	*size = niov_size - *off;

	return net_devmem_tx_vec(binding, virt_addr >> NET_DEVMEM_LOOKUP_SHIFT(binding));
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
			return DEVMEM_TX_FRAGS_FULL_ERRNO;

		virt_addr = (size_t)iter_iov_addr(from);
		niov = net_devmem_get_niov_at(binding, virt_addr, &off, &size);
		if (niov == NIOV_NULL)
			return -EFAULT;

		size = DEVMEM_TX_LENGTH_CLAMP(size, length);
		size = DEVMEM_TX_IOV_CLAMP(size, from);
		size = DEVMEM_TX_CLAMP(size, binding);
		if (DEVMEM_TX_REFUSE_EMPTY && !size)
			return -EFAULT;

		skb_add_rx_frag_netmem(skb, i, niov, off, size, DEVMEM_TX_TRUESIZE(size));
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
	if (pp_order != MP_DEVMEM_PP_ORDER(binding))
		return -E2BIG;

	return 0;
}

static int tx_autosize_bind(const struct niov_impl_config *cfg,
			    const struct niov_bind_args *args, void **binding)
{
	return devmem_op_bind(cfg, args, binding, netdev_nl_bind_rx_doit,
			      netdev_nl_bind_tx_doit);
}

static int tx_autosize_get_niov_at(const void *binding, u64 virt, u64 *idx, u64 *off,
				   u64 *size)
{
	return devmem_op_get_niov_at(binding, virt, idx, off, size, net_devmem_get_niov_at);
}

static int tx_autosize_fill(void *binding, struct niov_skb *skb,
			    struct niov_iov_iter *iter, int length)
{
	return devmem_op_fill(binding, skb, iter, length, zerocopy_fill_skb_from_devmem);
}

static int tx_autosize_pp_init(const void *binding, u32 pp_order)
{
	return devmem_op_pp_init(binding, pp_order, mp_dmabuf_devmem_init);
}

/* A test plugin with an ops table of another layout brings its own. */
#ifndef NIOV_PLUGIN_CUSTOM_OPS
static void tx_autosize_frag_release(void *binding, const struct niov_frag *frag)
{
	DEVMEM_FRAG_RELEASE_OP(binding, frag);
}

static int tx_autosize_zcrx_register(const struct niov_impl_config *cfg,
				     const struct niov_zcrx_args *args, u32 *niov_shift)
{
	return devmem_op_zcrx_register(cfg, args, niov_shift, DEVMEM_ZCRX_AREA_SHIFT);
}

static int tx_autosize_rx_alloc(void *binding, u64 *idx, u64 *virt, u64 *dma)
{
	return DEVMEM_RX_ALLOC_OP(binding, idx, virt, dma);
}

static const struct niov_impl_ops tx_autosize_ops = {
	.abi_version = NIOV_PLUGIN_ABI_VERSION,
	.name = NIOV_PLUGIN_NAME,
	.description = NIOV_PLUGIN_DESC,
	.bind = tx_autosize_bind,
	.unbind = devmem_op_unbind,
	.niov_shift = devmem_op_niov_shift,
	.num_niovs = devmem_op_num_niovs,
	.niov_dma_addr = devmem_op_niov_dma_addr,
	.get_niov_at = tx_autosize_get_niov_at,
	.fill = tx_autosize_fill,
	.pp_init = tx_autosize_pp_init,
	.zcrx_validate = devmem_op_zcrx_validate,
	.encode_tx_desc = DEVMEM_TX_ENCODE_OP,
	.must_catch = NIOV_PLUGIN_MUST_CATCH,
	.policy = NIOV_PLUGIN_POLICY,
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
	.rules = "tx-autosize",
	.frag_release = tx_autosize_frag_release,
	.resources = niov_shim_resources,
	.rx_alloc = tx_autosize_rx_alloc,
	.rx_free = devmem_op_rx_free,
	.zcrx_register = tx_autosize_zcrx_register,
	.fault_arm = niov_shim_fault_arm,
	.fault_calls = niov_shim_fault_calls,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &tx_autosize_ops;
}
#endif
