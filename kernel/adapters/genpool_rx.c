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
	return niov_k_bind_run(cfg, args, &c, niov_k_bind_guarded, false, niov_k_map_genpool, out);
}

static const struct niov_impl_ops genpool_rx_ops = {
	NIOV_K_COMMON_OPS,
	.name = "kernel-genpool-rx",
	.description = "the tree's own devmem.c and genalloc.c, gen_pool era, RX only",
	.bind = genpool_rx_bind,
	.unbind = niov_k_op_unbind,
	.caps = NIOV_CAP_RX | NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_FAULTS,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &genpool_rx_ops;
}
