// SPDX-License-Identifier: GPL-2.0
/*
 * genpool_tx.c - era (b): the gen_pool devmem with the TX path (6.14 to
 * 7.0): a bind with a direction, tx_vec, page-granular
 * net_devmem_get_niov_at(), the fill in net/core/datagram.c.  Checked
 * against "baseline" (which has the May 2026 size/SG-length fix, so a tree
 * without it is reported).  With NIOV_K_SHIFT_BIND (from the probe) it is
 * the rx-buf-size series on gen_pool: the bind takes a niov_shift, and
 * the rules are "net-next".
 */
#include "devmem.c"

#define NIOV_K_TX_ERA 1
#define NIOV_K_TABLE NIOV_K_TX_VEC_FROM_SIZE	/* gen_pool: tx_vec filled per sg entry */
#ifdef NIOV_K_SHIFT_BIND
#define NIOV_K_SHIFT_ERA 1
#endif
#include "adapter.h"
#include "genpool_common.h"
#include "pp_init.h"
#include "tx_common.h"

static void niov_k_map(struct niov_k_binding *kb)
{
	niov_k_map_genpool(kb);
#ifdef NIOV_K_SHIFT_BIND
	kb->niov_shift = kb->b->niov_shift;
#endif
}

static const struct niov_impl_ops genpool_tx_ops = {
	NIOV_K_COMMON_OPS,
	NIOV_K_TX_OPS
#ifdef NIOV_K_SHIFT_BIND
	.name = "kernel-genpool-shift",
	.description = "the tree's own devmem.c, genalloc.c and TX fill: niov_shift bind on gen_pool",
	.caps = NIOV_CAP_TX | NIOV_CAP_RX | NIOV_CAP_RX_BUF_SIZE | NIOV_CAP_LOOKUP | NIOV_K_FILL_CAPS |
		NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_FAULTS,
#else
	.name = "kernel-genpool-tx",
	.description = "the tree's own devmem.c, genalloc.c and TX fill: gen_pool era with TX",
	.caps = NIOV_CAP_TX | NIOV_CAP_RX | NIOV_CAP_LOOKUP | NIOV_K_FILL_CAPS |
		NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_FAULTS,
#endif
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return &genpool_tx_ops;
}
