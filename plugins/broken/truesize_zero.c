// SPDX-License-Identifier: GPL-2.0
/*
 * truesize_zero.c - "net_iovs are not memory, charge 0" (the review's
 * option 1) without touching the uncharge paths, which still subtract bytes.
 */
#define NIOV_PLUGIN_NAME	"truesize_zero"
#define NIOV_PLUGIN_DESC	"TX frags charge 0 to truesize while TCP uncharges bytes"
#define NIOV_PLUGIN_MUST_CATCH	"tcp.truesize_covers_bytes"
#define NIOV_PLUGIN_POLICY	"truesize=zero"

#define DEVMEM_TX_TRUESIZE(size)	0

#include "../kernel/tx_autosize.c"
