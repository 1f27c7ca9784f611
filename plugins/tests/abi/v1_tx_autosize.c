// SPDX-License-Identifier: GPL-2.0
/*
 * v1_tx_autosize.c - the tx-autosize preset as a plugin built against ABI
 * v1: its ops table ends at @policy, as v1 tables did, so a loader that
 * read a v2 field of it would read past the object (ASan: a global buffer
 * overflow).  The loader must take it, with the v1 capabilities.
 */
#define NIOV_PLUGIN_NAME	"v1-tx-autosize"
#define NIOV_PLUGIN_DESC	"tx-autosize built against ABI v1"
#define NIOV_PLUGIN_MUST_CATCH	NULL
#define NIOV_PLUGIN_CUSTOM_OPS

#include "../../kernel/tx_autosize.c"

/* struct niov_impl_ops up to @policy: the v1 layout. */
struct niov_impl_ops_v1 {
	uint32_t abi_version;
	const char *name;
	const char *description;
	int (*bind)(const struct niov_impl_config *, const struct niov_bind_args *, void **);
	void (*unbind)(void *);
	uint32_t (*niov_shift)(const void *);
	uint64_t (*num_niovs)(const void *);
	int (*niov_dma_addr)(const void *, uint64_t, uint64_t *);
	int (*get_niov_at)(const void *, uint64_t, uint64_t *, uint64_t *, uint64_t *);
	int (*fill)(void *, struct niov_skb *, struct niov_iov_iter *, int);
	int (*pp_init)(const void *, uint32_t);
	int (*zcrx_validate)(const struct niov_impl_config *, uint32_t, uint32_t, uint32_t);
	int (*encode_tx_desc)(const struct niov_impl_config *, uint32_t, uint32_t *, uint32_t);
	const char *must_catch;
	const char *policy;
};
_Static_assert(sizeof(struct niov_impl_ops_v1) == offsetof(struct niov_impl_ops, caps),
	       "the v1 table is a prefix of the v2 one");

static const struct niov_impl_ops_v1 v1_ops = {
	.abi_version = 1,
	.name = NIOV_PLUGIN_NAME,
	.description = NIOV_PLUGIN_DESC,
	.bind = tx_autosize_bind,
	.unbind = devmem_op_unbind,
	.niov_shift = devmem_op_niov_shift,
	.num_niovs = devmem_op_num_niovs,
	.niov_dma_addr = devmem_op_niov_dma_addr,
	.get_niov_at = tx_autosize_get_niov_at,
	.fill = tx_autosize_fill,
	.pp_init = tx_autosize_pp_init,
	.zcrx_validate = devmem_op_zcrx_validate,
	.encode_tx_desc = DEVMEM_TX_ENCODE_OP,
};

NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void)
{
	return (const struct niov_impl_ops *)(const void *)&v1_ops;
}
