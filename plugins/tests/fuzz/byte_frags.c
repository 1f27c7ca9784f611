// SPDX-License-Identifier: GPL-2.0
/*
 * byte_frags.c - tx-autosize whose fill cuts every frag to one byte.
 *
 * Smaller frags break no limit, so only the comparison with the model sees
 * it; on a send of a few KiB the plugin builds thousands of frags where the
 * model builds a handful.  The fuzz harness's test: a plugin past the work
 * budget the model's run stayed inside is a difference, not an input to
 * skip.
 */
#define NIOV_PLUGIN_NAME	"byte_frags"
#define NIOV_PLUGIN_DESC	"TX frags cut to one byte"
#define NIOV_PLUGIN_MUST_CATCH	"difference"

#define DEVMEM_TX_CLAMP(size, binding)	min_t(size_t, size, 1)

#include "../../kernel/tx_autosize.c"
