// SPDX-License-Identifier: GPL-2.0
/*
 * size_errno_e2big.c - a misaligned dmabuf size gets -E2BIG, the count
 * check's errno, instead of -EINVAL.
 */
#define NIOV_PLUGIN_NAME	"size_errno_e2big"
#define NIOV_PLUGIN_DESC	"misaligned dmabuf size returns -E2BIG instead of -EINVAL"
#define NIOV_PLUGIN_MUST_CATCH	"difference"

#define NET_DEVMEM_SIZE_ERRNO	(-E2BIG)

#include "../kernel/tx_autosize.c"
