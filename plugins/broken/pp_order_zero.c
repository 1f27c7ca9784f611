// SPDX-License-Identifier: GPL-2.0
/*
 * pp_order_zero.c - the memory provider keeps the pre-rx-buf-size check
 * "order != 0", so every RX binding with large niovs fails to open a queue.
 */
#define NIOV_PLUGIN_NAME	"pp_order_zero"
#define NIOV_PLUGIN_DESC	"mp_dmabuf_devmem_init still requires page_pool order 0"
#define NIOV_PLUGIN_MUST_CATCH	"difference"

#define MP_DEVMEM_PP_ORDER(binding)	0

#include "../kernel/tx_autosize.c"
