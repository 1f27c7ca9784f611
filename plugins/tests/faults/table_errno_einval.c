// SPDX-License-Identifier: GPL-2.0
/*
 * table_errno_einval.c - a failed niov table allocation returns -EINVAL
 * instead of -ENOMEM: the fault sweep's fault.errno catches it.
 */
#define NIOV_PLUGIN_NAME	"table_errno_einval"
#define NIOV_PLUGIN_DESC	"a failed niov table allocation returns -EINVAL"
#define NIOV_PLUGIN_MUST_CATCH	"fault.errno"

#define NET_DEVMEM_TABLE_ENOMEM	(-EINVAL)

#include "../../kernel/tx_autosize.c"
