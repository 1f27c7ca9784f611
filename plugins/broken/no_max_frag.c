// SPDX-License-Identifier: GPL-2.0
/*
 * no_max_frag.c - tx-autosize without seed 000 patches 4-5.
 *
 * Frags are bounded by the niov only, so a 64K frag reaches bnxt, whose
 * 16-bit BD length field reads it as 0, and fbnic, which drops it.
 */
#define NIOV_PLUGIN_NAME	"no_max_frag"
#define NIOV_PLUGIN_DESC	"TX frags not clamped to the device's max frag size " \
				"(seed 000 patches 4-5 missing)"
#define NIOV_PLUGIN_MUST_CATCH	"dev.desc_len_exact"
#define NIOV_PLUGIN_POLICY	"max_frag=none"

#define DEVMEM_TX_CLAMP(size, binding)	(size)

#include "../kernel/tx_autosize.c"
