// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_era_a_test.c - the real 6.12 devmem through its kernel plugin:
 * what the feasibility study saw must hold, and every check here fails on
 * a plugin that gets it wrong (wrong count, wrong address, a truncation
 * that stops truncating, a leak after a fault).
 */
#include "plugin_test.h"

static int bind_rx(const struct niov_dma_seg *segs, uint32_t n, uint64_t size, void **b)
{
	struct niov_bind_args a = { .dir = NIOV_DIR_RX, .nr_segs = n, .dmabuf_size = size, .segs = segs };

	return ops->bind(&cfg, &a, b);
}

/* 6 MiB in 2 segments: 1536 page niovs at the segments' addresses. */
static void six_mib_two_segments(void)
{
	const struct niov_dma_seg segs[] = { { 0x40000000, 2 << 20 }, { 0x80200000, 4 << 20 } };
	uint64_t dma, idx, virt;
	void *b;

	CHECK(bind_rx(segs, 2, 6 << 20, &b) == 0, "6 MiB bind failed");
	CHECK(ops->niov_shift(b) == 12, "niov shift %u", ops->niov_shift(b));
	CHECK(ops->num_niovs(b) == 1536, "%llu niovs, want 1536", (unsigned long long)ops->num_niovs(b));
	CHECK(ops->niov_dma_addr(b, 0, &dma) == 0 && dma == 0x40000000, "niov 0 at %llx", (unsigned long long)dma);
	CHECK(ops->niov_dma_addr(b, 511, &dma) == 0 && dma == 0x401ff000, "niov 511 at %llx", (unsigned long long)dma);
	CHECK(ops->niov_dma_addr(b, 512, &dma) == 0 && dma == 0x80200000, "niov 512 at %llx", (unsigned long long)dma);
	CHECK(ops->niov_dma_addr(b, 1535, &dma) == 0 && dma == 0x805ff000, "niov 1535 at %llx", (unsigned long long)dma);
	CHECK(ops->niov_dma_addr(b, 1536, &dma) == -EINVAL, "niov 1536 exists");
	/* gen_pool hands out from the last chunk first */
	CHECK(ops->rx_alloc(b, &idx, &virt, &dma) == 0 && idx == 512 && virt == 0x200000 && dma == 0x80200000,
	      "first rx niov %llu virt %llx dma %llx", (unsigned long long)idx, (unsigned long long)virt,
	      (unsigned long long)dma);
	ops->rx_free(b, idx);
	CHECK(ops->pp_init(b, 0) == 0, "order 0 refused");
	CHECK(ops->pp_init(b, 1) == -E2BIG, "order 1 not -E2BIG");
	ops->unbind(b);
	expect_balanced("6 MiB bind");

	cfg.page_shift = 16;
	CHECK(bind_rx(segs, 2, 6 << 20, &b) == 0 && ops->num_niovs(b) == 96, "64K pages: not 96 niovs");
	ops->unbind(b);
	cfg.page_shift = 12;
}

/* 0x1800 + 0x4000: 6.12 takes it, the count truncates, virtual and DMA part. */
static void truncation(void)
{
	const struct niov_dma_seg segs[] = { { 0x100000, 0x1800 }, { 0x200000, 0x4000 } };
	const uint64_t want[] = { 0x100000, 0x200000, 0x201000, 0x202000, 0x203000 };
	uint64_t dma, idx, virt;
	void *b;
	int i;

	CHECK(bind_rx(segs, 2, 0x5800, &b) == 0, "6.12 refused the unaligned sg entry");
	CHECK(ops->num_niovs(b) == 5, "%llu niovs, want 5", (unsigned long long)ops->num_niovs(b));
	for (i = 0; i < 5; i++)
		CHECK(ops->niov_dma_addr(b, i, &dma) == 0 && dma == want[i], "niov %d at %llx", i,
		      (unsigned long long)dma);
	/* the second segment's niovs start at virtual 0x1800, not 0x2000 */
	CHECK(ops->rx_alloc(b, &idx, &virt, &dma) == 0 && idx == 1 && virt == 0x1800 && dma == 0x200000,
	      "niov %llu virt %llx dma %llx", (unsigned long long)idx, (unsigned long long)virt,
	      (unsigned long long)dma);
	ops->rx_free(b, idx);
	ops->unbind(b);
	expect_balanced("truncation");
}

static void not_representable(void)
{
	const struct niov_dma_seg segs[] = { { 0, 1ULL << 32 } };
	void *b;

	CHECK(bind_rx(segs, 1, 1ULL << 32, &b) == NIOV_E_NOT_REPRESENTABLE, "a 4 GiB sg entry was taken");
	expect_balanced("4 GiB");
}

/* Fail every allocation, dma-buf step and restart in turn: an errno each, nothing left. */
static void fault_sweep(void)
{
	const struct niov_dma_seg segs[] = { { 0x100000, 0x2000 }, { 0x200000, 0x4000 } };
	uint32_t kind;
	uint64_t n, calls;
	void *b;
	int err;

	for (kind = 0; kind < NIOV_FAULT_COUNT_; kind++) {
		ops->fault_arm(kind, 0);
		CHECK(bind_rx(segs, 2, 0x6000, &b) == 0, "bind failed unarmed");
		ops->unbind(b);
		ops->fault_arm(kind, 0);
		CHECK(bind_rx(segs, 2, 0x6000, &b) == 0, "bind failed unarmed");
		calls = ops->fault_calls(kind);
		ops->unbind(b);
		for (n = 1; n <= calls; n++) {
			ops->fault_arm(kind, n);
			err = bind_rx(segs, 2, 0x6000, &b);
			CHECK(err == -ENOMEM || err == -EINVAL || err == -EBADF || err == -EBUSY,
			      "fault %u call %llu: %d", kind, (unsigned long long)n, err);
			if (!err)
				ops->unbind(b);
			ops->fault_arm(kind, 0);
			expect_balanced("fault sweep");
		}
	}
	ops->fault_arm(NIOV_FAULT_ALLOC, 0);
	CHECK(bind_rx(segs, 2, 0x6000, &b) == 0, "bind failed after the sweep");
	CHECK(ops->fault_calls(NIOV_FAULT_ALLOC) >= 6, "only %llu allocations counted",
	      (unsigned long long)ops->fault_calls(NIOV_FAULT_ALLOC));
	ops->unbind(b);
}

int main(int argc, char **argv)
{
	load_plugin(argc, argv, 2, "PLUGIN");
	CHECK(ops->rules && !strcmp(ops->rules, "linux-6.12"), "not a linux-6.12 plugin");
	CHECK(!(ops->caps & (NIOV_CAP_TX | NIOV_CAP_LOOKUP | NIOV_CAP_FILL)) && (ops->caps & NIOV_CAP_RX),
	      "caps %#x", ops->caps);
	six_mib_two_segments();
	truncation();
	not_representable();
	fault_sweep();
	return test_result("era (a) plugin");
}
