// SPDX-License-Identifier: GPL-2.0
/*
 * rx_virt_page.c - net_iov_virtual_addr() still shifts the niov index by
 * PAGE_SHIFT after rx-buf-size made niovs larger: with 16 KiB niovs, niov 1
 * claims dmabuf offset 0x1000 while its DMA address is 0x4000 further.
 */
#define NIOV_PLUGIN_NAME	"rx_virt_page"
#define NIOV_PLUGIN_DESC	"RX niov dmabuf offset computed in PAGE_SIZE units, not niov_shift"
#define NIOV_PLUGIN_MUST_CATCH	"rx.alloc_byte_map"

#include "devmem_common.h"

static int rx_alloc_page_virt(void *binding, u64 *idx, u64 *virt, u64 *dma)
{
	int err = devmem_op_rx_alloc(binding, idx, virt, dma);

	if (!err)
		*virt = *idx << PAGE_SHIFT;
	return err;
}

#define DEVMEM_RX_ALLOC_OP	rx_alloc_page_virt

#include "../kernel/tx_autosize.c"
