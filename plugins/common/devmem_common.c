// SPDX-License-Identifier: GPL-2.0
/*
 * devmem_common.c - the binding's life cycle and the glue that lets each
 * preset's kernel-shaped functions answer through struct niov_impl_ops.
 */
#include "devmem_common.h"

struct net_devmem_dmabuf_binding *
net_devmem_binding_alloc(const struct niov_impl_config *cfg,
			 const struct niov_bind_args *args,
			 enum dma_data_direction direction)
{
	struct net_devmem_dmabuf_binding *binding;
	struct sg_table *sgt;

	binding = kvzalloc(sizeof(*binding), GFP_KERNEL);
	if (!binding)
		return ERR_PTR(-ENOMEM);

	binding->cfg = *cfg;
	binding->direction = direction;
	binding->dmabuf = &binding->__dmabuf;
	binding->dmabuf->size = args->dmabuf_size;

	/* dma_buf_map_attachment(): the binding owns its sg table */
	sgt = &binding->__sgt;
	sgt->sgl = kvmalloc_array(args->nr_segs, sizeof(*sgt->sgl), GFP_KERNEL);
	if (!sgt->sgl) {
		kvfree(binding);
		return ERR_PTR(-ENOMEM);
	}
	if (args->nr_segs)
		memcpy(sgt->sgl, args->segs, args->nr_segs * sizeof(*sgt->sgl));
	sgt->nents = args->nr_segs;
	binding->sgt = sgt;

	return binding;
}

void net_devmem_binding_free(struct net_devmem_dmabuf_binding *binding)
{
	kvfree(binding->area.niovs);
	kvfree(binding->tx_vec);
	kvfree(binding->sgt->sgl);
	kvfree(binding);
}

int devmem_op_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
		   void **out, devmem_doit_t rx_doit, devmem_doit_t tx_doit)
{
	struct net_devmem_dmabuf_binding *binding;

	niov_shim_configure(cfg);

	switch (args->dir) {
	case NIOV_DIR_TX:
		binding = tx_doit(cfg, args);
		break;
	case NIOV_DIR_RX:
		binding = rx_doit(cfg, args);
		break;
	default:
		/* zcrx has no devmem netlink command: see zcrx_validate */
		return -EINVAL;
	}
	if (IS_ERR(binding))
		return (int)PTR_ERR(binding);

	*out = binding;
	return 0;
}

int devmem_op_get_niov_at(const void *priv, u64 virt, u64 *idx, u64 *off, u64 *size,
			  devmem_get_niov_at_t get_niov_at)
{
	const struct net_devmem_dmabuf_binding *binding = priv;
	size_t o = 0, s = 0;
	niov_ref_t niov;

	niov_shim_configure(&binding->cfg);

	niov = get_niov_at(binding, virt, &o, &s);
	if (niov == NIOV_NULL)
		return -EFAULT;

	*idx = (u64)niov;
	*off = o;
	*size = s;
	return 0;
}

int devmem_op_fill(void *priv, struct niov_skb *skb, struct niov_iov_iter *iter,
		   int length, devmem_fill_t fill)
{
	const struct net_devmem_dmabuf_binding *binding = priv;

	niov_shim_configure(&binding->cfg);

	/*
	 * The kernel's "i == MAX_SKB_FRAGS" never stops an skb that is
	 * already past the limit; refuse it rather than write past frags[].
	 */
	if (WARN_ON(skb->nr_frags > (u32)MAX_SKB_FRAGS))
		return -EMSGSIZE;

	return fill(skb, iter, length, binding);
}

int devmem_op_pp_init(const void *priv, u32 pp_order, devmem_pp_init_t init)
{
	const struct net_devmem_dmabuf_binding *binding = priv;

	if (binding)
		niov_shim_configure(&binding->cfg);
	return init(binding, pp_order);
}

void devmem_op_unbind(void *priv)
{
	if (priv)
		net_devmem_binding_free(priv);
}

u32 devmem_op_niov_shift(const void *priv)
{
	const struct net_devmem_dmabuf_binding *binding = priv;

	return binding->niov_shift;
}

u64 devmem_op_num_niovs(const void *priv)
{
	const struct net_devmem_dmabuf_binding *binding = priv;

	return binding->area.num_niovs;
}

/*
 * Only niovs bind initialised have an address: past niovs_init the table
 * holds zeroed entries no sg entry reached (RULES.md step 6).
 */
int devmem_op_niov_dma_addr(const void *priv, u64 idx, u64 *addr)
{
	const struct net_devmem_dmabuf_binding *binding = priv;

	if (idx >= binding->niovs_init)
		return -EINVAL;

	*addr = binding->area.niovs[idx].dma_addr;
	return 0;
}
