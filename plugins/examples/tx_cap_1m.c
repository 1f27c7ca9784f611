// SPDX-License-Identifier: GPL-2.0
/*
 * tx_cap_1m.c - a patch that changes a rule on purpose: TX auto-sizing
 * never picks niovs larger than 1 MiB (tx-autosize otherwise).
 *
 * Checked under the default tx-autosize rules it differs from the model on
 * every 2 MiB-aligned binding (and sizing.maximal fires): that is the
 * suite noticing the rule change.  The model expresses the change as the
 * policy tx_niov_max=1M, so the patch is checked with
 *
 *	niovcheck all --impl build/lib/libniov_tx_cap_1m.so --policy tx_niov_max=1M
 *
 * (model/RULES.md, "Declaring a rule change").  Once the change is settled
 * the plugin may declare it itself (.policy = "tx_niov_max=1M") and drop
 * the flag; this example leaves it undeclared so the test can show both.
 */
#define NIOV_PLUGIN_NAME	"tx-cap-1m"
#define NIOV_PLUGIN_DESC	"tx-autosize with TX niovs capped at 1 MiB (a rule change on purpose)"
#define NIOV_PLUGIN_MUST_CATCH	NULL

#define NET_DEVMEM_TX_NIOV_MAX	SZ_1M

#include "../kernel/tx_autosize.c"
