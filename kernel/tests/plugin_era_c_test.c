// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_era_c_test.c - a freelist-era tree (niov_shift bind, one area, a
 * u32 freelist) through its kernel plugin: RX with an rx-buf-size runs the
 * real bulk allocator through the page_pool the queue bind built, the
 * order check wants niov_shift - PAGE_SHIFT, the freelist bind refuses
 * unaligned sizes and sg addresses in both directions, TX fills page-sized
 * frags, every reference comes back, and a bind past the suite's memory cap
 * is not run.  Each check fails on a plugin that gets it wrong.
 */
#include "plugin_test.h"

static char extack[256];

static int bind(uint32_t dir, uint32_t rx_buf_size, const struct niov_dma_seg *segs, uint32_t n,
		uint64_t size, void **b)
{
	struct niov_bind_args a = { .dir = dir, .has_rx_buf_size = rx_buf_size != 0,
				    .rx_buf_size = rx_buf_size, .nr_segs = n, .dmabuf_size = size,
				    .segs = segs, .extack = extack, .extack_len = sizeof(extack) };

	extack[0] = 0;
	return ops->bind(&cfg, &a, b);
}

/* 64 KiB of 8 KiB niovs over two entries: 8 niovs, every one handed out once. */
static void rx_bulk_allocator(void)
{
	const struct niov_dma_seg segs[] = { { 0x200000, 0x4000 }, { 0x800000, 0xc000 } };
	uint64_t idx[9], virt, dma, seen = 0;
	void *b;
	int i;

	CHECK(bind(NIOV_DIR_RX, 8192, segs, 2, 0x10000, &b) == 0, "RX bind: %s", extack);
	CHECK(ops->niov_shift(b) == 13 && ops->num_niovs(b) == 8, "shift %u, %llu niovs",
	      ops->niov_shift(b), (unsigned long long)ops->num_niovs(b));
	CHECK(ops->niov_dma_addr(b, 1, &dma) == 0 && dma == 0x202000, "niov 1 at %llx", (unsigned long long)dma);
	CHECK(ops->niov_dma_addr(b, 2, &dma) == 0 && dma == 0x800000, "niov 2 at %llx", (unsigned long long)dma);
	for (i = 0; i < 8; i++) {
		CHECK(ops->rx_alloc(b, &idx[i], &virt, &dma) == 0 && idx[i] < 8, "rx_alloc %d", i);
		if (idx[i] >= 8)
			return;
		CHECK(virt == idx[i] << 13, "niov %llu at virt %llx", (unsigned long long)idx[i],
		      (unsigned long long)virt);
		CHECK(dma == (idx[i] < 2 ? 0x200000 + (idx[i] << 13) : 0x800000 + ((idx[i] - 2) << 13)),
		      "niov %llu at dma %llx", (unsigned long long)idx[i], (unsigned long long)dma);
		CHECK(!(seen & (1ULL << idx[i])), "niov %llu handed out twice", (unsigned long long)idx[i]);
		seen |= 1ULL << idx[i];
	}
	CHECK(ops->rx_alloc(b, &idx[8], &virt, &dma) == -ENOMEM, "a ninth niov from eight");
	for (i = 0; i < 8; i++)
		ops->rx_free(b, idx[i]);
	CHECK(ops->rx_alloc(b, &idx[0], &virt, &dma) == 0, "no niov after the frees");
	ops->rx_free(b, idx[0]);
	CHECK(ops->pp_init(b, 1) == 0, "order 1 refused for 8 KiB niovs");
	CHECK(ops->pp_init(b, 0) == -E2BIG, "order 0 taken for 8 KiB niovs");
	ops->unbind(b);
	expect_balanced("RX bulk allocator");
}

/* The freelist bind's checks: size and sg address/length aligned to the niov, both directions. */
static void freelist_checks(void)
{
	const struct niov_dma_seg odd_addr[] = { { 0x201000, 0x4000 } };
	const struct niov_dma_seg ok[] = { { 0x200000, 0x4000 } };
	const struct niov_dma_seg short_seg[] = { { 0x200000, 0x1800 }, { 0x300000, 0x2800 } };
	void *b;

	CHECK(bind(NIOV_DIR_RX, 8192, odd_addr, 1, 0x4000, &b) == -EINVAL, "8K niovs at 0x201000");
	CHECK(bind(NIOV_DIR_RX, 8192, ok, 1, 0x3000, &b) == -EINVAL, "RX size 0x3000 of 8K niovs");
	CHECK(bind(NIOV_DIR_TX, 0, short_seg, 2, 0x4000, &b) == -EINVAL, "TX sg entry of 0x1800");
	CHECK(bind(NIOV_DIR_RX, 12288, ok, 1, 0x4000, &b) == -EINVAL, "rx-buf-size 12K");
	CHECK(bind(NIOV_DIR_TX, 8192, ok, 1, 0x4000, &b) == -EINVAL, "rx-buf-size on bind-tx");
	expect_balanced("refused binds");
}

static void tx_fill(void)
{
	const struct niov_dma_seg segs[] = { { 0x100000, 0x1000 }, { 0x300000, 0x2000 } };
	struct niov_iov iov[] = { { 0x800, 0x2000 } };
	struct niov_iov_iter it = { .iov = iov, .nr_segs = 1, .iov_offset = 0, .count = 0x2000 };
	struct niov_frag frags[17];
	struct niov_skb skb = { .frags = frags };
	uint64_t idx, off, size;
	void *b;
	int i;

	CHECK(bind(NIOV_DIR_TX, 0, segs, 2, 0x3000, &b) == 0, "TX bind: %s", extack);
	CHECK(ops->num_niovs(b) == 3 && ops->niov_shift(b) == 12, "TX table");
	CHECK(ops->get_niov_at(b, 0x1800, &idx, &off, &size) == 0 && idx == 1 && off == 0x800 && size == 0x800,
	      "lookup 0x1800");
	CHECK(ops->fill(b, &skb, &it, 0x2000) == 0 && skb.nr_frags == 3 && skb.truesize == 3 * 4096,
	      "fill: %u frags truesize %u", skb.nr_frags, skb.truesize);
	for (i = 0; i < (int)skb.nr_frags; i++)
		ops->frag_release(b, &frags[i]);
	ops->unbind(b);
	expect_balanced("TX fill");
}

/* Past 2^24 niovs the suite does not run the bind (its cap, not the kernel's). */
static void memory_cap(void)
{
	const uint64_t seg = (1ULL << 32) - 4096;	/* the largest u32 dma_length of whole pages */
	const struct niov_dma_seg big[] = { { 1ULL << 40, 1ULL << 31 }, { (1ULL << 40) + (1ULL << 31), 1ULL << 31 },
					    { (1ULL << 40) + (2ULL << 31), 1ULL << 31 },
					    { (1ULL << 40) + (3ULL << 31), 1ULL << 31 } };
	struct niov_dma_seg many[17];
	void *b;
	int i;

	for (i = 0; i < 17; i++)
		many[i] = (struct niov_dma_seg){ .addr = (uint64_t)i << 32, .len = seg };
	/* 17 * (2^20 - 1) pages: just past 2^24 */
	CHECK(bind(NIOV_DIR_TX, 0, many, 17, 17 * seg, &b) == NIOV_E_NOT_REPRESENTABLE,
	      "%llu page niovs not capped", (unsigned long long)(17 * (seg >> 12)));
	CHECK(strstr(extack, "memory cap") != NULL, "extack '%s' does not name the cap", extack);
	/* the same cap counts niovs, not bytes: 8 GiB of 2 MiB niovs is 4096 */
	CHECK(bind(NIOV_DIR_RX, 1u << 21, big, 4, 1ULL << 33, &b) == 0, "8 GiB of 2 MiB niovs: %s", extack);
	if (!failures) {
		CHECK(ops->num_niovs(b) == 4096, "%llu niovs", (unsigned long long)ops->num_niovs(b));
		ops->unbind(b);
	}
	expect_balanced("memory cap");
}

int main(int argc, char **argv)
{
	load_plugin(argc, argv, 2, "PLUGIN");
	CHECK(ops->rules && !strcmp(ops->rules, "net-next"), "rules %s", ops->rules ? ops->rules : "none");
	CHECK((ops->caps & (NIOV_CAP_RX_BUF_SIZE | NIOV_CAP_RX_ALLOC | NIOV_CAP_TX)) ==
	      (NIOV_CAP_RX_BUF_SIZE | NIOV_CAP_RX_ALLOC | NIOV_CAP_TX), "caps %#x", ops->caps);
	rx_bulk_allocator();
	freelist_checks();
	tx_fill();
	memory_cap();
	return test_result("era (c) plugin");
}
