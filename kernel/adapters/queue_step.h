/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue_step.h - bind-to-queue after an RX bind, reported apart (ABI v3).
 */
#ifndef NIOV_K_QUEUE_STEP_H
#define NIOV_K_QUEUE_STEP_H

/*
 * What netdev_nl_bind_rx_doit() does after the bind: open the queue, whose
 * restart builds the page_pool and runs the provider's init.  The handler
 * unbinds at once when that fails and answers the queue's errno; a suite
 * that asks for the two steps apart (ABI v3 queue_err) gets the binding
 * and the queue's answer instead, and unbinds it itself, so an error is
 * charged to the step that raised it.  Returns what the handler would.
 */
struct niov_k_queue_step {
	bool split;		/* the suite wants the queue's answer apart */
	int err;		/* what opening the queue returned */
};

static inline int niov_k_open_queue(struct niov_k_binding *kb, struct net_devmem_dmabuf_binding *b,
				    struct netlink_ext_ack *extack, struct niov_k_queue_step *q)
{
	struct net_device *dev = niov_k_netdev();

	kb->rxq = niov_k_free_rxq(dev);
	q->err = net_devmem_bind_dmabuf_to_queue(dev, kb->rxq, b, extack);
	if (!q->err || q->split)
		return 0;
	net_devmem_unbind_dmabuf(b);
	return q->err;
}

static inline void niov_k_queue_step_init(struct niov_k_queue_step *q, const struct niov_impl_config *cfg,
					  const struct niov_bind_args *args)
{
	q->split = cfg->abi_version >= 3 && args->dir == NIOV_DIR_RX && args->queue_err;
	q->err = 0;
}

static inline void niov_k_queue_step_out(const struct niov_k_queue_step *q, const struct niov_bind_args *args)
{
	if (q->split)
		*args->queue_err = q->err;
}

#endif /* NIOV_K_QUEUE_STEP_H */
