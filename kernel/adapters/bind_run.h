/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bind_run.h - what every era's bind and unbind op do around the tree's own
 * calls: the fake dma-buf of the run's sg table, the device, the bind (and
 * for RX the queue) in a guarded call, the answers out, the niov arrays
 * mapped; and the unbind.
 */
#ifndef NIOV_K_BIND_RUN_H
#define NIOV_K_BIND_RUN_H

struct niov_k_bind_call {
	struct niov_k_binding *kb;
	struct netlink_ext_ack extack;
	unsigned int niov_shift;	/* what the era's bind-tx / bind-rx pass, where they pass one */
	struct niov_k_queue_step queue;
};

/*
 * @guarded: the era's call of the tree's bind (and bind-to-queue) on @c, in
 * which a BUG() comes back as NIOV_K_EBUG; @map registers the niov arrays
 * of a binding that worked.  Returns 0 (the binding in *@out) or what the
 * bind returned.
 */
static inline int niov_k_bind_run(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
				  struct niov_k_bind_call *c, long (*guarded)(void *), bool rx_page_size_ok,
				  void (*map)(struct niov_k_binding *), void **out)
{
	long err;

	c->kb = niov_k_binding_new(cfg, args->dir);
	if (!c->kb)
		return -ENOMEM;
	c->kb->fd = niov_k_dmabuf_create(args->dmabuf_size, args->segs, args->nr_segs);
	if (c->kb->fd < 0) {
		err = c->kb->fd;
		niov_k_binding_free(c->kb);
		return (int)err;
	}
	niov_k_netdev_setup(0, rx_page_size_ok);
	niov_k_queue_step_init(&c->queue, cfg, args);
	err = niov_k_guarded(guarded, c, NIOV_K_EBUG);
	niov_k_extack_out(&c->extack, args);
	niov_k_queue_step_out(&c->queue, args);
	if (err) {
		niov_k_dmabuf_close(c->kb->fd);
		niov_k_binding_free(c->kb);
		return (int)err;
	}
	map(c->kb);
	niov_k_set_live(c->kb, true);
	*out = c->kb;
	return 0;
}

static long niov_k_unbind_guarded(void *arg)
{
	net_devmem_unbind_dmabuf(((struct niov_k_binding *)arg)->b);
	return 0;
}

static void niov_k_op_unbind(void *binding)
{
	struct niov_k_binding *kb = binding;

	if (!kb)
		return;
	niov_k_configure(&kb->cfg);
	(void)niov_k_guarded(niov_k_unbind_guarded, kb, NIOV_K_EBUG);
	niov_k_dmabuf_close(kb->fd);
	niov_k_binding_free(kb);
}

#endif /* NIOV_K_BIND_RUN_H */
