// SPDX-License-Identifier: GPL-2.0
/*
 * no_seg_len_check.c - sg entries are checked by address only: a segment
 * whose length is not a multiple of the niov size leaves a partial niov.
 */
#define NIOV_PLUGIN_NAME	"no_seg_len_check"
#define NIOV_PLUGIN_DESC	"sg entries checked for address alignment only, not length"
#define NIOV_PLUGIN_MUST_CATCH	"sizing.aligns_segments"

#define NET_DEVMEM_SG_ALIGNED(dma, len, size)	IS_ALIGNED(dma, size)

#include "../kernel/tx_autosize.c"
