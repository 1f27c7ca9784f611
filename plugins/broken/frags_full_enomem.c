// SPDX-License-Identifier: GPL-2.0
/*
 * frags_full_enomem.c - tx-autosize whose fill, out of frag slots, returns
 * -ENOMEM instead of -EMSGSIZE.
 *
 * The fill's contract is 0, -EMSGSIZE (push the skb, go on with a new one)
 * or -EFAULT.  tcp_sendmsg_locked() takes any other error as the end of the
 * send, so a long send stops after the first full skb with an errno the
 * caller never expects.
 */
#define NIOV_PLUGIN_NAME	"frags_full_enomem"
#define NIOV_PLUGIN_DESC	"the fill returns -ENOMEM, outside its contract, when the skb's frags run out"
#define NIOV_PLUGIN_MUST_CATCH	"abi.fill_errno"

#define DEVMEM_TX_FRAGS_FULL_ERRNO	(-ENOMEM)

#include "../kernel/tx_autosize.c"
