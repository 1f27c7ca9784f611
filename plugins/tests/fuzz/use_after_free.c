// SPDX-License-Identifier: GPL-2.0
/*
 * use_after_free.c - tx-autosize that reads a block it freed one skb
 * earlier.
 *
 * The first skb's fill frees a small block and keeps the pointer; the fill
 * of the next skb but one reads it.  In between the harness has run its
 * checks and allocated and freed its own small objects, so the block is
 * only still poisoned if ASan's quarantine held it.  The fuzz harness's
 * test: its ASan options (a quarantine cut to what one input frees) still
 * report a use after free inside an input.
 */
#define NIOV_PLUGIN_NAME	"use_after_free"
#define NIOV_PLUGIN_DESC	"reads freed memory in its TX fill"
#define NIOV_PLUGIN_MUST_CATCH	"AddressSanitizer: heap-use-after-free"

static void uaf_frag(int frag);

#define DEVMEM_TX_TRUESIZE(size)	(uaf_frag(i), (size))

#include "../../kernel/tx_autosize.c"

/* Enough skbs for the harness to reuse a freed block its own size. */
#define UAF_READ_AFTER_SKBS	64

static char *uaf_block;
static unsigned int uaf_skbs;

/* Called on every frag; @frag is its index in the skb. */
static void uaf_frag(int frag)
{
	if (frag != 0)
		return;
	if (!uaf_block) {
		uaf_block = kvzalloc(24, GFP_KERNEL);
		kvfree(uaf_block);
		return;
	}
	if (++uaf_skbs == UAF_READ_AFTER_SKBS) {
		/*
		 * Through memcpy, not a load: the plugins are not built with
		 * ASan, its interceptors are what sees their memory.
		 */
		volatile size_t len = 1;
		char c;

		memcpy(&c, uaf_block, len);
	}
}
