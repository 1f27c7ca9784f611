// SPDX-License-Identifier: GPL-2.0
/*
 * no_length_clamp.c - the fill forgets the length TCP asked for, so skbs
 * grow past size_goal.
 */
#define NIOV_PLUGIN_NAME	"no_length_clamp"
#define NIOV_PLUGIN_DESC	"frag not clamped to the length left for this skb"
#define NIOV_PLUGIN_MUST_CATCH	"frag.limits"

#define DEVMEM_TX_LENGTH_CLAMP(size, length)	(size)

#include "../kernel/tx_autosize.c"
