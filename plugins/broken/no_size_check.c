// SPDX-License-Identifier: GPL-2.0
/*
 * no_size_check.c - the bind forgets that the dmabuf size must be a
 * multiple of the niov size (the stable fix of May 2026 for TX), so a
 * dmabuf with a partial last niov binds.
 */
#define NIOV_PLUGIN_NAME	"no_size_check"
#define NIOV_PLUGIN_DESC	"bind does not check the dmabuf size against the niov size"
#define NIOV_PLUGIN_MUST_CATCH	"sizing.aligns_dmabuf"

#define NET_DEVMEM_SIZE_CHECKED(direction)	false

#include "../kernel/tx_autosize.c"
