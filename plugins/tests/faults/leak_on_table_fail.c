// SPDX-License-Identifier: GPL-2.0
/*
 * leak_on_table_fail.c - when the niov table cannot be allocated after
 * tx_vec was, the error path forgets tx_vec.  No scenario reaches that path
 * (both tables have the same size: a too-large one fails at tx_vec); only
 * an injected allocation failure does, so only the fault sweep catches it
 * (res.no_leak).
 */
#define NIOV_PLUGIN_NAME	"leak_on_table_fail"
#define NIOV_PLUGIN_DESC	"TX bind leaks tx_vec when the niov table allocation fails"
#define NIOV_PLUGIN_MUST_CATCH	"res.no_leak"

#define NET_DEVMEM_NIOVS_ENOMEM_UNWIND(binding)	((binding)->tx_vec = NULL)

#include "../../kernel/tx_autosize.c"
