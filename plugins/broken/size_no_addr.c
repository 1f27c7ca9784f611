// SPDX-License-Identifier: GPL-2.0
/*
 * size_no_addr.c - seed 000 patch 6 applied on a gen_pool-era base.
 *
 * That base checks sg entries by length only (their addresses go into a
 * gen_pool as they are), checks the dmabuf size for TX only and has no
 * -E2BIG.  The sizing loop reuses its entry check, so a 2M-long entry at a
 * 64K-aligned address gets 2M niovs, and the bind loop no longer catches
 * it: niov DMA addresses straddle what the entry maps.
 *
 * Matches the model's tx-autosize rules with tx_niov=auto-noaddr
 * bind=genpool.
 */
#define NIOV_PLUGIN_NAME	"size_no_addr"
#define NIOV_PLUGIN_DESC	"TX niov size chosen, and sg entries validated, without DMA " \
				"addresses (patch 6 on a gen_pool-era base)"
#define NIOV_PLUGIN_MUST_CATCH	"sizing.aligns_segments"
#define NIOV_PLUGIN_POLICY	"tx_niov=auto-noaddr bind=genpool"

#define NET_DEVMEM_GENPOOL_BASE	1

#include "../kernel/tx_autosize.c"
