/* SPDX-License-Identifier: GPL-2.0 */
/*
 * binding.h - the ABI-side binding's life (the netlink socket the binds
 * hang on, the rx queue an RX bind takes, allocation, extack copying).
 */
#ifndef NIOV_K_BINDING_H
#define NIOV_K_BINDING_H

/* The netlink socket the binds hang their bindings on (6.16 on). */
static struct netdev_nl_sock niov_k_nl_sock = {
	.bindings = LIST_HEAD_INIT(niov_k_nl_sock.bindings),
};

/*
 * The rx queue an RX bind takes: the first with no memory provider, so that
 * bindings alive at once do not collide on one queue (netlink's user names
 * the queue; the suite's scenarios do not).
 */
static inline u32 niov_k_free_rxq(struct net_device *dev)
{
	u32 i;

	for (i = 0; i + 1 < dev->real_num_rx_queues; i++) {
		if (!__netif_get_rx_queue(dev, i)->mp_params.mp_priv)
			break;
	}
	return i;
}

static inline struct niov_k_binding *niov_k_binding_new(const struct niov_impl_config *cfg, u32 dir)
{
	struct niov_k_binding *kb = niov_libc_malloc(sizeof(*kb));

	if (!kb)
		return NULL;
	niov_libc_memzero(kb, sizeof(*kb));
	kb->cfg = *cfg;
	kb->dir = dir;
	kb->fd = -1;
	return kb;
}

static inline void niov_k_binding_free(struct niov_k_binding *kb)
{
	niov_k_set_live(kb, false);
	niov_libc_free(kb->by_addr);
	niov_libc_free(kb->arrays);
	niov_libc_free(kb);
}

static inline void niov_k_extack_out(const struct netlink_ext_ack *extack,
				     const struct niov_bind_args *args)
{
	size_t n;

	if (!args->extack || !args->extack_len)
		return;
	args->extack[0] = 0;
	if (!extack->_msg)
		return;
	n = min_t(size_t, strlen(extack->_msg), args->extack_len - 1);
	memcpy(args->extack, extack->_msg, n);
	args->extack[n] = 0;
}

static inline void niov_k_extack_say(const struct niov_bind_args *args, const char *msg)
{
	struct netlink_ext_ack extack = { ._msg = msg };

	niov_k_extack_out(&extack, args);
}

#endif /* NIOV_K_BINDING_H */
