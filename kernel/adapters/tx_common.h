/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tx_common.h - the TX eras (b) and (c): bind with a direction (and a
 * niov_shift in (c)), get_niov_at, the real TX fill, frag release.  The
 * adapter including this defines niov_k_map() (register the binding's niov
 * arrays) before it.
 *
 * The netlink doits are re-typed here, in short, for the checks that come
 * before net_devmem_bind_dmabuf(): bind-tx has no rx-buf-size attribute;
 * bind-rx knows it only where the bind takes a niov_shift (NIOV_K_SHIFT_ERA)
 * and then wants a power of two of at least PAGE_SIZE.
 */
#ifndef NIOV_K_TX_COMMON_H
#define NIOV_K_TX_COMMON_H

static void niov_k_map(struct niov_k_binding *kb);

/* Trees whose bind-tx passes no shift of its own: pages. */
#ifndef NIOV_K_TX_SHIFT_ARG
#define NIOV_K_TX_SHIFT_ARG	PAGE_SHIFT
#endif

static long niov_k_bind_guarded(void *arg)
{
	struct niov_k_bind_call *c = arg;
	struct net_device *dev = niov_k_netdev();
	struct device *dma_dev = dev->dev.parent;
	enum dma_data_direction direction = c->kb->dir == NIOV_DIR_RX ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	unsigned int dmabuf_fd = (unsigned int)c->kb->fd;
	unsigned int niov_shift = c->niov_shift;
	struct netdev_nl_sock *priv = &niov_k_nl_sock;
	struct sock *nl_sk = niov_k_nl_sk();
	struct netlink_ext_ack *extack = &c->extack;
	struct net_devmem_dmabuf_binding *b;
	int err;

	(void)dma_dev; (void)direction; (void)dmabuf_fd; (void)niov_shift; (void)priv; (void)nl_sk;
	b = net_devmem_bind_dmabuf(NIOV_K_BIND_ARGS);
	if (IS_ERR(b))
		return PTR_ERR(b);
	niov_k_track(b);
	if (c->kb->dir == NIOV_DIR_RX) {
		err = niov_k_open_queue(c->kb, b, extack, &c->queue);
		if (err)
			return err;
	}
	c->kb->b = b;
	return 0;
}

static int niov_k_op_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
			  void **out)
{
	struct niov_k_bind_call c = { 0 };

	niov_k_configure(cfg);
	if (args->dir != NIOV_DIR_RX && args->dir != NIOV_DIR_TX)
		return -EINVAL;
	/* what netlink's handler passes: bind-tx's argument, as the tree has it */
	c.niov_shift = args->dir == NIOV_DIR_TX ? (unsigned int)(NIOV_K_TX_SHIFT_ARG) : (unsigned int)PAGE_SHIFT;
	if (args->has_rx_buf_size) {
#if defined(NIOV_K_SHIFT_ERA) && defined(NIOV_K_RX_ATTR)
		u32 v = args->rx_buf_size;

		if (args->dir == NIOV_DIR_TX) {
			niov_k_extack_say(args, "unknown attribute rx-buf-size on bind-tx");
			return -EINVAL;
		}
		if (!v || !is_power_of_2(v) || v < PAGE_SIZE) {
			niov_k_extack_say(args, "rx-buf-size must be a power of two of at least PAGE_SIZE");
			return -EINVAL;
		}
		c.niov_shift = (unsigned int)ilog2(v);
#else
		niov_k_extack_say(args, "unknown attribute rx-buf-size");
		return -EINVAL;
#endif
	}
	if (niov_k_over_cap(args, args->dmabuf_size, c.niov_shift ? c.niov_shift : niov_k_auto_shift_guess(args)))
		return NIOV_E_NOT_REPRESENTABLE;
	if (niov_k_unmappable(args))
		return NIOV_E_NOT_REPRESENTABLE;
	if (niov_k_table_overrun(args, c.niov_shift, NIOV_K_TABLE))
		return NIOV_E_NOT_REPRESENTABLE;
#ifdef NIOV_K_SHIFT_ERA
	return niov_k_bind_run(cfg, args, &c, niov_k_bind_guarded, true, niov_k_map, out);
#else
	return niov_k_bind_run(cfg, args, &c, niov_k_bind_guarded, false, niov_k_map, out);
#endif
}

struct niov_k_lookup_call {
	struct niov_k_binding *kb;
	size_t virt, off, size;
	struct net_iov *niov;
};

static long niov_k_lookup_guarded(void *arg)
{
	struct niov_k_lookup_call *c = arg;

	c->niov = net_devmem_get_niov_at(c->kb->b, c->virt, &c->off, &c->size);
	return 0;
}

static int niov_k_op_get_niov_at(const void *binding, uint64_t virt, uint64_t *idx,
				 uint64_t *off, uint64_t *size)
{
	struct niov_k_lookup_call c = { .kb = (struct niov_k_binding *)binding, .virt = virt };

	niov_k_configure(&c.kb->cfg);
	if (niov_k_guarded(niov_k_lookup_guarded, &c, NIOV_K_EBUG) == NIOV_K_EBUG)
		return NIOV_K_EBUG;
	if (!c.niov)
		return -EFAULT;
	*idx = niov_k_index(c.kb, c.niov);
	*off = c.off;
	*size = c.size;
	return 0;
}

#ifdef NIOV_K_HAVE_FILL
/* net/core/datagram.c's function, extracted by the build, unmodified. */
#include "zerocopy_fill_skb_from_devmem.c"

struct niov_k_fill_call {
	struct niov_k_binding *kb;
	struct sk_buff *skb;
	struct iov_iter *iter;
	int length;
};

static long niov_k_fill_guarded(void *arg)
{
	struct niov_k_fill_call *c = arg;

	return zerocopy_fill_skb_from_devmem(c->skb, c->iter, c->length, c->kb->b);
}

/*
 * The ABI's skb through the kernel's: the frags already there are only
 * counted (the fill reads nr_frags and appends), the new ones come back
 * as niov indices (pointer - array base) and the truesize each charged.
 */
static int niov_k_op_fill(void *binding, struct niov_skb *abi, struct niov_iov_iter *iter,
			  int length)
{
	struct niov_k_fill_call c = { .kb = binding, .iter = iter, .length = length };
	struct sk_buff *skb;
	unsigned int i, first = abi->nr_frags;
	long err;

	niov_k_configure(&c.kb->cfg);
	if (abi->nr_frags > (u32)MAX_SKB_FRAGS)
		return -EMSGSIZE;	/* no kernel skb is past the limit */
	skb = niov_libc_malloc(sizeof(*skb));
	if (!skb)
		return -ENOMEM;
	niov_libc_memzero(skb, sizeof(*skb));
	skb->shinfo.nr_frags = (u8)abi->nr_frags;
	skb->len = abi->len;
	skb->truesize = abi->truesize;
	c.skb = skb;
	err = niov_k_guarded(niov_k_fill_guarded, &c, NIOV_K_EBUG);
	for (i = first; i < skb->shinfo.nr_frags; i++) {
		const skb_frag_t *f = &skb->shinfo.frags[i];

		abi->frags[i].niov = niov_k_index(c.kb, niov_k_netmem_niov(f->netmem));
		abi->frags[i].off = f->offset;
		abi->frags[i].len = f->len;
		abi->frags[i].truesize = f->truesize;
		abi->frags[i].reserved = 0;
	}
	abi->nr_frags = skb->shinfo.nr_frags;
	abi->len = skb->len;
	abi->truesize = skb->truesize;
	niov_libc_free(skb);
	return (int)err;
}

/* What the skb's free does for one frag: put_netmem() of its niov. */
static void niov_k_op_frag_release(void *binding, const struct niov_frag *frag)
{
	struct niov_k_binding *kb = binding;
	struct net_iov *niov = niov_k_niov(kb, frag->niov);

	niov_k_configure(&kb->cfg);
	if (!niov) {
		niov_k_res.niov_refs--;	/* the fill counted it; nothing to put */
		return;
	}
	put_netmem(net_iov_to_netmem(niov));
}
#define NIOV_K_FILL_CAPS	(NIOV_CAP_FILL)
#define NIOV_K_FILL_OPS		.fill = niov_k_op_fill, .frag_release = niov_k_op_frag_release,
#else
#define NIOV_K_FILL_CAPS	0
#define NIOV_K_FILL_OPS
#endif

/* The TX eras' bind, unbind, lookup and (when the tree has it) fill. */
#define NIOV_K_TX_OPS						\
	.bind = niov_k_op_bind,					\
	.unbind = niov_k_op_unbind,				\
	.get_niov_at = niov_k_op_get_niov_at,			\
	NIOV_K_FILL_OPS

#endif /* NIOV_K_TX_COMMON_H */
