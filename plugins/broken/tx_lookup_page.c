// SPDX-License-Identifier: GPL-2.0
/*
 * tx_lookup_page.c - tx-autosize without seed 000 patch 3.
 *
 * The bind sizes TX niovs from the sg table, but net_devmem_get_niov_at()
 * still divides by PAGE_SIZE: with 2M niovs, offset 8K names tx_vec[2]
 * (or an index past the table) at offset 0 instead of niov 0 at 8K.
 */
#define NIOV_PLUGIN_NAME	"tx_lookup_page"
#define NIOV_PLUGIN_DESC	"TX lookup still PAGE_SIZE-granular while TX niovs are larger " \
				"(seed 000 patch 3 missing)"
#define NIOV_PLUGIN_MUST_CATCH	"lookup.byte_map"
#define NIOV_PLUGIN_POLICY	"lookup=page"

#define NET_DEVMEM_LOOKUP_SHIFT(binding)	PAGE_SHIFT

#include "../kernel/tx_autosize.c"
