/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devmem_era.h - the one net_devmem_bind_dmabuf(), netlink doits,
 * net_devmem_get_niov_at(), zerocopy_fill_skb_from_devmem() and
 * mp_dmabuf_devmem_init() of every preset, and its ops table.
 *
 * A preset (plugins/kernel/) includes this file and then declares two
 * things: its ops table as the loader sees it (name, description, rules,
 * caps, on top of DEVMEM_ERA_OPS), and what its kernel state does
 * differently, a struct devmem_era named era:
 *
 *	#include "devmem_era.h"
 *
 *	static const struct niov_impl_ops devmem_era_ops = {
 *		DEVMEM_ERA_OPS,
 *		.name = "net-next",
 *		...
 *	};
 *
 *	static const struct devmem_era era = {
 *		.bind = DEVMEM_BIND_FREELIST,
 *		.rx_buf_size = true,
 *	};
 *
 * The era parameters are what changed between kernel states.  The slip
 * hooks below (macros a file defines before including this one) are not
 * eras: they plant one mistake in the code, for plugins/broken/ and the
 * mutation tests, and default to the code itself.
 */
#ifndef DEVMEM_ERA_H
#define DEVMEM_ERA_H

#include "devmem_common.h"

/* How the bind lays the niovs out, and what it checks. */
enum devmem_bind_era {
	/*
	 * gen_pool (6.12 to 7.0): one chunk per sg entry holding its whole
	 * pages, tx_vec indexed by dmabuf offset; sg addresses go into the
	 * gen_pool unchecked and nothing counts niovs against U32_MAX.
	 */
	DEVMEM_BIND_GENPOOL_UNFIXED,
	/* the same with the May 2026 fix: TX size and sg lengths in pages */
	DEVMEM_BIND_GENPOOL,
	/*
	 * the freelist bind (net-next): one table of dmabuf->size >>
	 * niov_shift niovs, size checked both ways, sg address and length,
	 * -E2BIG past U32_MAX niovs.
	 */
	DEVMEM_BIND_FREELIST,
};

struct devmem_era {
	enum devmem_bind_era bind;
	/* bind-rx takes NETDEV_A_DMABUF_RX_BUF_SIZE (net-next) */
	bool rx_buf_size;
	/*
	 * 6.12: no bind-tx command, and the scatterlist's dma_length is an
	 * unsigned int (longer sg entries are not representable).
	 */
	bool rx_only;

	/* seed 000 */
	bool tx_truesize_len;	/* patch 2: a TX frag charges its length */
	bool lookup_niov_shift;	/* patch 3: the TX lookup works in niov_shift units */
	bool tx_clamp_device;	/* patch 4/5: frags clamped to the device's max frag */
	bool tx_autosize;	/* patch 6: bind-tx sizes TX niovs from the sg table */
};

/* --- slip hooks ------------------------------------------------------------ */

/* The ABI version the ops table says it has (the loader's tests change it). */
#ifndef NIOV_PLUGIN_ABI_VERSION
#define NIOV_PLUGIN_ABI_VERSION	NIOV_IMPL_ABI_VERSION
#endif

/*
 * The bind's checks: does an sg entry fit niovs of @size (asked by the
 * sizing loop and the bind loop alike), is the dmabuf size checked in
 * this direction, is the niov count limited.
 */
#ifndef NET_DEVMEM_SG_ALIGNED
#define NET_DEVMEM_SG_ALIGNED(dma, len, size)	devmem_era_sg_aligned(dma, len, size)
#endif
#ifndef NET_DEVMEM_SIZE_CHECKED
#define NET_DEVMEM_SIZE_CHECKED(direction)	devmem_era_size_checked(direction)
#endif
#ifndef NET_DEVMEM_COUNT_CHECKED
#define NET_DEVMEM_COUNT_CHECKED		(era.bind == DEVMEM_BIND_FREELIST)
#endif

/* The error a misaligned dmabuf size gets. */
#ifndef NET_DEVMEM_SIZE_ERRNO
#define NET_DEVMEM_SIZE_ERRNO	(-EINVAL)
#endif

/* The granularity of net_devmem_get_niov_at() (patch 3). */
#ifndef NET_DEVMEM_LOOKUP_SHIFT
#define NET_DEVMEM_LOOKUP_SHIFT(binding) \
	(era.lookup_niov_shift ? (binding)->niov_shift : PAGE_SHIFT)
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
#define DEVMEM_TX_TRUESIZE(size)	(era.tx_truesize_len ? (size) : PAGE_SIZE)
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
	(era.tx_clamp_device ? min_t(size_t, size, (binding)->tx_max_frag_size) : (size))
#endif

/* What the fill returns when the skb has no frag slot left. */
#ifndef DEVMEM_TX_FRAGS_FULL_ERRNO
#define DEVMEM_TX_FRAGS_FULL_ERRNO	(-EMSGSIZE)
#endif

/* --- the preset ------------------------------------------------------------ */

/* Defined by the preset, after this file. */
static const struct devmem_era era;
static const struct niov_impl_ops devmem_era_ops;

static inline bool devmem_era_genpool(void)
{
	return era.bind != DEVMEM_BIND_FREELIST;
}

/* gen_pool: lengths only, and only since the fix; freelist: address and length */
static inline bool devmem_era_sg_aligned(dma_addr_t dma, size_t len, size_t size)
{
	switch (era.bind) {
	case DEVMEM_BIND_GENPOOL_UNFIXED:
		return true;
	case DEVMEM_BIND_GENPOOL:
		return IS_ALIGNED(len, size);
	case DEVMEM_BIND_FREELIST:
		break;
	}
	return IS_ALIGNED(dma, size) && IS_ALIGNED(len, size);
}

/* gen_pool: TX only, and only since the fix; freelist: both directions */
static inline bool devmem_era_size_checked(enum dma_data_direction direction)
{
	switch (era.bind) {
	case DEVMEM_BIND_GENPOOL_UNFIXED:
		return false;
	case DEVMEM_BIND_GENPOOL:
		return direction == DMA_TO_DEVICE;
	case DEVMEM_BIND_FREELIST:
		break;
	}
	return true;
}

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

/*
 * niov_shift == 0 picks the net_iov size from the dmabuf, TX only.
 *
 * The gen_pool bind gives each sg entry a chunk of its whole pages: the
 * kernel gives each chunk its own niov array, here a chunk is a window of
 * the binding's one table (counted rather than summed, so that a wrapping
 * sum of lengths cannot alias earlier niovs).  Where the dmabuf size is not
 * checked the table holds the chunks' niovs; tx_vec always holds
 * dmabuf->size / PAGE_SIZE entries and is indexed by dmabuf offset.
 */
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
	size_t niov_idx, tx_idx;
	size_t virtual = 0;
	size_t i;
	long err;

	binding = net_devmem_binding_alloc(cfg, args, direction);
	if (IS_ERR(binding))
		return binding;
	dmabuf = binding->dmabuf;
	binding->tx_max_frag_size = cfg->dev_tx_max_frag_size;
	binding->rx_genpool = devmem_era_genpool();

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
		NL_SET_ERR_MSG(args, devmem_era_genpool() ?
			       "tx dmabuf size is not a multiple of PAGE_SIZE" :
			       "dmabuf size not aligned to niov size");
		goto err_free;
	}

	if (NET_DEVMEM_COUNT_CHECKED && (dmabuf->size >> niov_shift) > U32_MAX) {
		err = -E2BIG;
		NL_SET_ERR_MSG(args, "dmabuf contains too many net_iovs");
		goto err_free;
	}
	binding->area.num_niovs = dmabuf->size >> niov_shift;
	if (devmem_era_genpool() && !NET_DEVMEM_SIZE_CHECKED(direction)) {
		/* the chunks hold whole niovs of each sg entry, nothing else */
		binding->area.num_niovs = 0;
		for_each_sgtable_dma_sg(binding->sgt, sg, sg_idx)
			binding->area.num_niovs += sg_dma_len(sg) >> niov_shift;
	}

	if (direction == DMA_TO_DEVICE) {
		binding->tx_vec = net_devmem_table_alloc(dmabuf->size >> niov_shift,
							 sizeof(struct net_iov *));
		if (!binding->tx_vec) {
			err = NET_DEVMEM_TABLE_ENOMEM;
			goto err_free;
		}
	}

	/*
	 * The gen_pool kernel allocates the niovs chunk by chunk inside the
	 * loop below; the rules fail a table too large for kvmalloc before
	 * any sg entry is looked at, RX included.
	 */
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
			NL_SET_ERR_MSG(args, devmem_era_genpool() ?
				       "dmabuf sg entry length is not a multiple of PAGE_SIZE" :
				       "dmabuf sg entry not aligned to niov size");
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
			/*
			 * gen_pool: tx_vec is indexed by dmabuf offset
			 * (base_virtual), the table by niov: the same unless
			 * an sg entry was not whole niovs.  Never past
			 * tx_vec's size >> niov_shift.
			 */
			tx_idx = devmem_era_genpool() ? (virtual >> niov_shift) + i : niov_idx;
			if (direction == DMA_TO_DEVICE && tx_idx < dmabuf->size >> niov_shift)
				binding->tx_vec[tx_idx] = niov;
			dma += niov_size;
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
	unsigned int niov_shift = PAGE_SHIFT;

	if (args->has_rx_buf_size) {
		u32 rx_buf_size = args->rx_buf_size;

		/* before rx-buf-size: an unknown attribute */
		if (!era.rx_buf_size)
			return ERR_PTR(-EINVAL);
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
	if (era.rx_only)
		return ERR_PTR(-EOPNOTSUPP);	/* genetlink: no such command */

	/* not in the bind-tx policy: strict validation rejects it */
	if (args->has_rx_buf_size)
		return ERR_PTR(-EINVAL);

	/* 0: let the bind size the niovs from the sg table (patch 6) */
	return net_devmem_bind_dmabuf(cfg, args, DMA_TO_DEVICE,
				      era.tx_autosize ? 0 : PAGE_SHIFT);
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

/* Before rx-buf-size every niov is a page: order 0. */
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

/* --- glue to struct niov_impl_ops ------------------------------------------ */

static int devmem_era_bind(const struct niov_impl_config *cfg,
			   const struct niov_bind_args *args, void **binding)
{
	u32 i;

	/* 6.12's scatterlist: the DMA length is an unsigned int */
	for (i = 0; era.rx_only && i < args->nr_segs; i++)
		if (args->segs[i].len > U32_MAX)
			return NIOV_E_NOT_REPRESENTABLE;

	return devmem_op_bind(cfg, args, binding, netdev_nl_bind_rx_doit,
			      netdev_nl_bind_tx_doit);
}

static int devmem_era_get_niov_at(const void *binding, u64 virt, u64 *idx, u64 *off,
				  u64 *size)
{
	return devmem_op_get_niov_at(binding, virt, idx, off, size, net_devmem_get_niov_at);
}

static int devmem_era_fill(void *binding, struct niov_skb *skb, struct niov_iov_iter *iter,
			   int length)
{
	return devmem_op_fill(binding, skb, iter, length, zerocopy_fill_skb_from_devmem);
}

static int devmem_era_pp_init(const void *binding, u32 pp_order)
{
	return devmem_op_pp_init(binding, pp_order, mp_dmabuf_devmem_init);
}

static void devmem_era_frag_release(void *binding, const struct niov_frag *frag)
{
	DEVMEM_FRAG_RELEASE_OP(binding, frag);
}

static int devmem_era_zcrx_register(const struct niov_impl_config *cfg,
				    const struct niov_zcrx_args *args, u32 *niov_shift)
{
	return devmem_op_zcrx_register(cfg, args, niov_shift, DEVMEM_ZCRX_AREA_SHIFT);
}

static int devmem_era_rx_alloc(void *binding, u64 *idx, u64 *virt, u64 *dma)
{
	return DEVMEM_RX_ALLOC_OP(binding, idx, virt, dma);
}

/* The ops every preset has; the preset adds its name, rules and caps. */
#define DEVMEM_ERA_OPS						\
	.abi_version = NIOV_PLUGIN_ABI_VERSION,			\
	.bind = devmem_era_bind,				\
	.unbind = devmem_op_unbind,				\
	.niov_shift = devmem_op_niov_shift,			\
	.num_niovs = devmem_op_num_niovs,			\
	.niov_dma_addr = devmem_op_niov_dma_addr,		\
	.get_niov_at = devmem_era_get_niov_at,			\
	.fill = devmem_era_fill,				\
	.pp_init = devmem_era_pp_init,				\
	.zcrx_validate = devmem_op_zcrx_validate,		\
	.encode_tx_desc = DEVMEM_TX_ENCODE_OP,			\
	.frag_release = devmem_era_frag_release,		\
	.resources = niov_shim_resources,			\
	.rx_alloc = devmem_era_rx_alloc,			\
	.rx_free = devmem_op_rx_free,				\
	.zcrx_register = devmem_era_zcrx_register,		\
	.fault_arm = niov_shim_fault_arm,			\
	.fault_calls = niov_shim_fault_calls

/* A test plugin with an ops table of another layout brings its own. */
#ifndef NIOV_PLUGIN_CUSTOM_OPS
NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &devmem_era_ops;
}
#endif

#endif /* DEVMEM_ERA_H */
