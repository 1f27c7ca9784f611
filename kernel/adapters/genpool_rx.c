// SPDX-License-Identifier: GPL-2.0
/*
 * genpool_rx.c - era (a): the gen_pool devmem with RX only (6.12 LTS):
 * net_devmem_bind_dmabuf(dev, fd, extack), no TX path, no get_niov_at, no
 * rx-buf-size attribute; every niov is a page.  Checked against the
 * rules the probe names ("linux-6.12").
 *
 * The tree's net/core/devmem.c is compiled here, unmodified, so its static
 * helpers (net_devmem_get_dma_addr, dmabuf_devmem_ops) are callable.
 *
 * Its devmem.h needs struct net_iov whole.  The kernel's page_pool headers
 * bring netmem.h in first; they are shadowed here, and only trees with a
 * memory_provider.h (which includes it) would otherwise have it in time.
 */
#include <net/netmem.h>
#include "devmem.c"

#include "adapter.h"
#include "genpool_common.h"
#include "pp_init.h"

struct niov_k_bind_call {
	struct niov_k_binding *kb;
	struct netlink_ext_ack extack;
	struct niov_k_queue_step queue;
};

/* What netdev_nl_bind_rx_doit() does around the bind: the dma-buf, then the queue. */
static long niov_k_bind_guarded(void *arg)
{
	struct niov_k_bind_call *c = arg;
	struct net_devmem_dmabuf_binding *b;
	int err;

	b = net_devmem_bind_dmabuf(niov_k_netdev(), (unsigned int)c->kb->fd, &c->extack);
	if (IS_ERR(b))
		return PTR_ERR(b);
	niov_k_track(b);
	err = niov_k_open_queue(c->kb, b, &c->extack, &c->queue);
	if (err)
		return err;
	c->kb->b = b;
	return 0;
}

static int genpool_rx_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
			   void **out)
{
	struct niov_k_bind_call c = { 0 };
	long err;

	niov_k_configure(cfg);
	if (args->dir != NIOV_DIR_RX) {
		niov_k_extack_say(args, "this kernel has no devmem TX");
		return -EOPNOTSUPP;
	}
	if (args->has_rx_buf_size) {
		/* netlink: the attribute is past NETDEV_A_DMABUF_MAX here */
		niov_k_extack_say(args, "unknown attribute rx-buf-size");
		return -EINVAL;
	}
	if (niov_k_over_cap(args, args->dmabuf_size, PAGE_SHIFT))
		return NIOV_E_NOT_REPRESENTABLE;
	if (niov_k_unmappable(args))
		return NIOV_E_NOT_REPRESENTABLE;
	c.kb = niov_k_binding_new(cfg, args->dir);
	if (!c.kb)
		return -ENOMEM;
	c.kb->fd = niov_k_dmabuf_create(args->dmabuf_size, args->segs, args->nr_segs);
	if (c.kb->fd < 0) {
		err = c.kb->fd;
		niov_k_binding_free(c.kb);
		return (int)err;
	}
	niov_k_netdev_setup(0, false);
	niov_k_queue_step_init(&c.queue, cfg, args);
	err = niov_k_guarded(niov_k_bind_guarded, &c, NIOV_K_EBUG);
	niov_k_extack_out(&c.extack, args);
	niov_k_queue_step_out(&c.queue, args);
	if (err) {
		niov_k_dmabuf_close(c.kb->fd);
		niov_k_binding_free(c.kb);
		return (int)err;
	}
	niov_k_map_genpool(c.kb);
	niov_k_set_live(c.kb, true);
	*out = c.kb;
	return 0;
}

static long niov_k_unbind_guarded(void *arg)
{
	net_devmem_unbind_dmabuf(((struct niov_k_binding *)arg)->b);
	return 0;
}

static void genpool_rx_unbind(void *binding)
{
	struct niov_k_binding *kb = binding;

	if (!kb)
		return;
	niov_k_configure(&kb->cfg);
	(void)niov_k_guarded(niov_k_unbind_guarded, kb, NIOV_K_EBUG);
	niov_k_dmabuf_close(kb->fd);
	niov_k_binding_free(kb);
}

static const struct niov_impl_ops genpool_rx_ops = {
	NIOV_K_COMMON_OPS,
	.name = "kernel-genpool-rx",
	.description = "the tree's own devmem.c and genalloc.c, gen_pool era, RX only",
	.bind = genpool_rx_bind,
	.unbind = genpool_rx_unbind,
	.caps = NIOV_CAP_RX | NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_FAULTS,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &genpool_rx_ops;
}
