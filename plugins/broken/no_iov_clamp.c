// SPDX-License-Identifier: GPL-2.0
/*
 * no_iov_clamp.c - the fill forgets to stop at the end of the iov element,
 * so a frag runs into dmabuf bytes the application never named.
 */
#define NIOV_PLUGIN_NAME	"no_iov_clamp"
#define NIOV_PLUGIN_DESC	"frag not clamped to the remainder of the iov element"
#define NIOV_PLUGIN_MUST_CATCH	"frag.limits"

#define DEVMEM_TX_IOV_CLAMP(size, from)	(size)

#include "../kernel/tx_autosize.c"
