// SPDX-License-Identifier: GPL-2.0
/*
 * truesize_page.c - tx-autosize without seed 000 patch 2.
 *
 * A frag may now span up to a whole 2M niov but still charges PAGE_SIZE,
 * so truesize covers less than the payload and TCP's byte-wise uncharging
 * (ack, tso_fragment) drives it below zero.
 */
#define NIOV_PLUGIN_NAME	"truesize_page"
#define NIOV_PLUGIN_DESC	"TX frags charge PAGE_SIZE to truesize while niovs are larger " \
				"(seed 000 patch 2 missing)"
#define NIOV_PLUGIN_MUST_CATCH	"tcp.truesize_covers_bytes"
#define NIOV_PLUGIN_POLICY	"truesize=page"

#define DEVMEM_TX_TRUESIZE(size)	PAGE_SIZE

#include "../kernel/tx_autosize.c"
