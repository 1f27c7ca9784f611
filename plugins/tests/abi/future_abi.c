// SPDX-License-Identifier: GPL-2.0
/*
 * future_abi.c - tx-autosize claiming an ABI version this niovcheck does
 * not know: the loader refuses it with one line (exit 2).
 */
#define NIOV_PLUGIN_NAME	"future-abi"
#define NIOV_PLUGIN_DESC	"claims ABI version 99"
#define NIOV_PLUGIN_MUST_CATCH	NULL
#define NIOV_PLUGIN_ABI_VERSION	99

#include "../../kernel/tx_autosize.c"
