// SPDX-License-Identifier: GPL-2.0
/*
 * lookup_past_end.c - the lookup's bound is off by one: an offset equal to
 * the dmabuf size is taken for a valid one and names a niov past the table.
 */
#define NIOV_PLUGIN_NAME	"lookup_past_end"
#define NIOV_PLUGIN_DESC	"get_niov_at bound checks virt > size instead of >= (off by one)"
#define NIOV_PLUGIN_MUST_CATCH	"lookup.index_in_table"

#define NET_DEVMEM_PAST_END(virt, size)	((virt) > (size))

#include "../kernel/tx_autosize.c"
