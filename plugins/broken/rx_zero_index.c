// SPDX-License-Identifier: GPL-2.0
/*
 * rx_zero_index.c - the RX allocator treats niov index 0 as "none", the
 * gen_pool habit of address 0 carried over to the freelist: niov 0 is
 * popped and never handed out.
 */
#define NIOV_PLUGIN_NAME	"rx_zero_index"
#define NIOV_PLUGIN_DESC	"RX allocator loses niov 0 (index 0 read as no niov)"
#define NIOV_PLUGIN_MUST_CATCH	"rx.alloc_count"

#include "devmem_common.h"

static int rx_alloc_zero_is_none(void *binding, u64 *idx, u64 *virt, u64 *dma)
{
	int err = devmem_op_rx_alloc(binding, idx, virt, dma);

	if (!err && *idx == 0)
		return -ENOMEM;
	return err;
}

#define DEVMEM_RX_ALLOC_OP	rx_alloc_zero_is_none

#include "../kernel/tx_autosize.c"
