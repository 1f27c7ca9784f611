/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pp_init.h - the memory provider's init as a queue restart runs it, for
 * every era: the page_pool a driver would build at the order asked for, with
 * the tree's own dmabuf_devmem_ops (static in its devmem.c, hence a header
 * the adapter includes after it), then torn down.  The order check the
 * suite compares is the code's own mp_dmabuf_devmem_init().
 */
#ifndef NIOV_K_PP_INIT_H
#define NIOV_K_PP_INIT_H

/*
 * The page_pool a driver would build at @pp_order for a queue bound to
 * @binding, its provider init run (the code's order check), then torn down.
 */
struct niov_k_pp_call {
	const struct niov_k_binding *kb;
	u32 order;
};

static long niov_k_pp_init_guarded(void *arg)
{
	struct niov_k_pp_call *c = arg;
	struct pp_memory_provider_params params = {
		.mp_priv = c->kb ? c->kb->b : NULL,
#ifdef NIOV_K_NO_MP_OPS
		.mp_ops = &niov_k_mp_direct_ops,
#else
		.mp_ops = &dmabuf_devmem_ops,
#endif
	};
	struct page_pool *pool;

	pool = niov_k_page_pool_create(__netif_get_rx_queue(niov_k_netdev(), 1), &params,
				       c->order);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	niov_k_page_pool_destroy(pool);
	return 0;
}

static int niov_k_op_pp_init(const void *binding, uint32_t pp_order)
{
	struct niov_k_pp_call c = { .kb = binding, .order = pp_order };

	if (c.kb)
		niov_k_configure(&c.kb->cfg);
	return (int)niov_k_guarded(niov_k_pp_init_guarded, &c, NIOV_K_EBUG);
}

#endif /* NIOV_K_PP_INIT_H */
