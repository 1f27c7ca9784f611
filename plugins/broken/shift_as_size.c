// SPDX-License-Identifier: GPL-2.0
/*
 * shift_as_size.c - niov_shift used where the niov size was meant: the
 * offset inside a niov is masked with (shift - 1).
 */
#define NIOV_PLUGIN_NAME	"shift_as_size"
#define NIOV_PLUGIN_DESC	"lookup masks the offset with niov_shift - 1 instead of niov_size - 1"
#define NIOV_PLUGIN_MUST_CATCH	"lookup.byte_map"

#define NET_DEVMEM_NIOV_OFF(virt, niov_size, binding)	((virt) & ((binding)->niov_shift - 1))

#include "../kernel/tx_autosize.c"
