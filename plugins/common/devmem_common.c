// SPDX-License-Identifier: GPL-2.0
/*
 * devmem_common.c - the binding's life cycle and the glue that lets each
 * preset's kernel-shaped functions answer through struct niov_impl_ops.
 */
#include "devmem_common.h"

void net_devmem_set_err_msg(const struct niov_bind_args *args, const char *msg)
{
	size_t n;

	if (!args->extack || !args->extack_len)
		return;
	n = strlen(msg);
	if (n >= args->extack_len)
		n = args->extack_len - 1;
	memcpy(args->extack, msg, n);
	args->extack[n] = 0;
}

/*
 * dma_buf_get() and dma_buf_attach() each take a dma-buf reference, the
 * mapping counts as one DMA mapping; the errors are the ABI's fault
 * injection convention (niov_impl.h).
 */
struct net_devmem_dmabuf_binding *
net_devmem_binding_alloc(const struct niov_impl_config *cfg,
			 const struct niov_bind_args *args,
			 enum dma_data_direction direction)
{
	struct net_devmem_dmabuf_binding *binding;
	struct sg_table *sgt;
	long err;

	if (niov_shim_fault(NIOV_FAULT_DMABUF_GET))
		return ERR_PTR(-EBADF);
	niov_shim_res.dmabuf_refs++;

	binding = kvzalloc(sizeof(*binding), GFP_KERNEL);
	if (!binding) {
		err = -ENOMEM;
		goto err_put;
	}
	if (niov_shim_fault(NIOV_FAULT_DMABUF_ATTACH)) {
		NL_SET_ERR_MSG(args, "Failed to bind dmabuf to device");
		err = -ENOMEM;
		goto err_free;
	}
	niov_shim_res.dmabuf_refs++;

	binding->cfg = *cfg;
	binding->direction = direction;
	binding->dmabuf = &binding->__dmabuf;
	binding->dmabuf->size = args->dmabuf_size;

	/* dma_buf_map_attachment(): the binding owns its sg table */
	sgt = &binding->__sgt;
	sgt->sgl = NULL;
	if (!niov_shim_fault(NIOV_FAULT_DMABUF_MAP))
		sgt->sgl = kvmalloc_array(args->nr_segs, sizeof(*sgt->sgl), GFP_KERNEL);
	if (!sgt->sgl) {
		NL_SET_ERR_MSG(args, "Failed to map dmabuf attachment");
		err = -ENOMEM;
		goto err_detach;
	}
	niov_shim_res.dma_mappings++;
	if (args->nr_segs)
		memcpy(sgt->sgl, args->segs, args->nr_segs * sizeof(*sgt->sgl));
	sgt->nents = args->nr_segs;
	binding->sgt = sgt;
	niov_shim_res.binding_refs++;

	return binding;

err_detach:
	niov_shim_res.dmabuf_refs--;
err_free:
	kvfree(binding);
err_put:
	niov_shim_res.dmabuf_refs--;
	return ERR_PTR(err);
}

void net_devmem_binding_free(struct net_devmem_dmabuf_binding *binding)
{
	/* a gen_pool that still has niovs out cannot be destroyed: it leaks */
	if (!net_devmem_rx_release(binding))
		WARN(1, "can't destroy genpool");
	WARN_ON(binding->frag_refs);	/* freed under a frag that holds a reference */
	kvfree(binding->area.niovs);
	kvfree(binding->tx_vec);
	kvfree(binding->sgt->sgl);
	niov_shim_res.dma_mappings--;
	niov_shim_res.dmabuf_refs -= 2;
	niov_shim_res.binding_refs--;
	kvfree(binding);
}

int devmem_op_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
		   void **out, devmem_doit_t rx_doit, devmem_doit_t tx_doit)
{
	struct net_devmem_dmabuf_binding *binding;
	int err;

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

	/* the page_pool memory provider's side of an RX binding */
	if (args->dir == NIOV_DIR_RX) {
		err = net_devmem_rx_init(binding);
		if (err) {
			net_devmem_binding_free(binding);
			return err;
		}
	}
	/* xa_alloc_cyclic() of the binding id, the last step since 6.16 */
	if (niov_shim_fault(NIOV_FAULT_ID_ALLOC)) {
		net_devmem_binding_free(binding);
		return -EBUSY;
	}

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
	struct net_devmem_dmabuf_binding *binding = priv;
	u32 before = skb->nr_frags, i;
	int ret;

	niov_shim_configure(&binding->cfg);

	/*
	 * The kernel's "i == MAX_SKB_FRAGS" never stops an skb that is
	 * already past the limit; refuse it rather than write past frags[].
	 */
	if (WARN_ON(skb->nr_frags > (u32)MAX_SKB_FRAGS))
		return -EMSGSIZE;

	ret = fill(skb, iter, length, binding);
	/* each frag the fill added holds the reference get_netmem() took */
	for (i = before; i < skb->nr_frags; i++)
		net_devmem_get_net_iov(binding);
	return ret;
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

/* put_netmem() of a frag the fill made: the niov's and the binding's reference. */
void devmem_op_frag_release(void *priv, const struct niov_frag *frag)
{
	struct net_devmem_dmabuf_binding *binding = priv;

	(void)frag;
	if (WARN_ON(!binding->frag_refs))	/* refcount underflow */
		return;
	binding->frag_refs--;
	niov_shim_res.niov_refs--;
	niov_shim_res.binding_refs--;
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
