// SPDX-License-Identifier: GPL-2.0
/*
 * refuse_empty_frag.c - the devmem TX RFC's "if (!size) return -EFAULT":
 * an empty iov element fails the whole send instead of costing a frag.
 */
#define NIOV_PLUGIN_NAME	"refuse_empty_frag"
#define NIOV_PLUGIN_DESC	"an empty iov element makes the fill return -EFAULT (the RFC's check)"
#define NIOV_PLUGIN_MUST_CATCH	"difference"

#define DEVMEM_TX_REFUSE_EMPTY	true

#include "../kernel/tx_autosize.c"
