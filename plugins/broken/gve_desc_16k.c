// SPDX-License-Identifier: GPL-2.0
/*
 * gve_desc_16k.c - gve frags split at 16 KiB instead of 16 KiB - 1: a full
 * piece does not fit the 14-bit buf_size and reads as 0.
 */
#define NIOV_PLUGIN_NAME	"gve_desc_16k"
#define NIOV_PLUGIN_DESC	"gve descriptors split at 16384 bytes; the 14-bit field truncates them"
#define NIOV_PLUGIN_MUST_CATCH	"dev.desc_len_exact"

#include "devmem_common.h"

static int gve_desc_16k_encode(const struct niov_impl_config *cfg, u32 frag_len,
			       u32 *lens, u32 max);
#define DEVMEM_TX_ENCODE_OP	gve_desc_16k_encode

#include "../kernel/tx_autosize.c"

/* As gve_tx_fill_pkt_desc_dqo() with the off-by-one limit, 14-bit field. */
static int gve_desc_16k_encode(const struct niov_impl_config *cfg, u32 frag_len,
			       u32 *lens, u32 max)
{
	u32 n = 0;

	if (cfg->device != NIOV_DEV_GVE)
		return devmem_op_encode_tx_desc(cfg, frag_len, lens, max);
	while (frag_len > 0) {
		u32 cur_len = min_t(u32, frag_len, SZ_16K);

		if (n < max)
			lens[n] = cur_len & (SZ_16K - 1);
		n++;
		frag_len -= cur_len;
	}
	return (int)n;
}
