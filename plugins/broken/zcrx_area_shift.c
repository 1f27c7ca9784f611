// SPDX-License-Identifier: GPL-2.0
/*
 * zcrx_area_shift.c - the zcrx registration takes the area's alignment from
 * its largest chunk instead of its least aligned one, so a buffer size one
 * chunk cannot hold whole is accepted and its niovs straddle chunks.
 */
#define NIOV_PLUGIN_NAME	"zcrx_area_shift"
#define NIOV_PLUGIN_DESC	"zcrx area alignment from the most aligned chunk, not the least"
#define NIOV_PLUGIN_MUST_CATCH	"zcrx.rx_buf_len"

#include "devmem_common.h"

static u32 io_area_most_aligned(const struct niov_zcrx_args *args)
{
	u32 shift = 0, i;

	for (i = 0; i < args->nr_segs; i++)
		if (args->segs[i].len && __ffs(args->segs[i].len) > shift)
			shift = (u32)__ffs(args->segs[i].len);
	return shift;
}

#define DEVMEM_ZCRX_AREA_SHIFT	io_area_most_aligned

#include "../kernel/tx_autosize.c"
