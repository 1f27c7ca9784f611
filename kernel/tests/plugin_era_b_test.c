// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_era_b_test.c - a gen_pool TX-era tree through its kernel plugin.
 * "fixed": TX bind, lookup and the real fill hold and put back every
 * reference.  "prefix" (before the May 2026 fix): the TX bind of a dmabuf
 * that is not a page multiple is accepted and the lookup of its last page
 * returns no niov of the table (an over-read of tx_vec: under ASan this
 * run stops with the sanitizer's report instead).
 */
#include "plugin_test.h"

static int bind_tx(const struct niov_dma_seg *segs, uint32_t n, uint64_t size, void **b)
{
	struct niov_bind_args a = { .dir = NIOV_DIR_TX, .nr_segs = n, .dmabuf_size = size, .segs = segs };

	return ops->bind(&cfg, &a, b);
}

static void tx_fill(void)
{
	const struct niov_dma_seg segs[] = { { 0x100000, 0x1000 }, { 0x300000, 0x2000 } };
	struct niov_iov iov[] = { { 0x800, 0x2000 } };
	struct niov_iov_iter it = { .iov = iov, .nr_segs = 1, .iov_offset = 0, .count = 0x2000 };
	struct niov_frag frags[17];
	struct niov_skb skb = { .frags = frags };
	struct niov_resources r;
	uint64_t idx, off, size;
	void *b;
	int i;

	CHECK(bind_tx(segs, 2, 0x3000, &b) == 0, "TX bind failed");
	CHECK(ops->num_niovs(b) == 3, "%llu niovs", (unsigned long long)ops->num_niovs(b));
	CHECK(ops->get_niov_at(b, 0x1800, &idx, &off, &size) == 0 && idx == 1 && off == 0x800 && size == 0x800,
	      "lookup 0x1800: %llu %llx %llx", (unsigned long long)idx, (unsigned long long)off,
	      (unsigned long long)size);
	CHECK(ops->get_niov_at(b, 0x3000, &idx, &off, &size) == -EFAULT, "lookup past the end");
	CHECK(ops->fill(b, &skb, &it, 0x2000) == 0, "fill failed");
	CHECK(skb.nr_frags == 3 && skb.len == 0x2000 && skb.truesize == 3 * 4096, "frags %u len %u truesize %u",
	      skb.nr_frags, skb.len, skb.truesize);
	CHECK(frags[0].niov == 0 && frags[0].off == 0x800 && frags[0].len == 0x800, "frag 0");
	CHECK(frags[1].niov == 1 && frags[1].off == 0 && frags[1].len == 0x1000, "frag 1");
	CHECK(frags[2].niov == 2 && frags[2].off == 0 && frags[2].len == 0x800, "frag 2");
	ops->resources(&r);
	CHECK(r.niov_refs == 3 && r.binding_refs == 4, "after the fill: niov %lld binding %lld",
	      (long long)r.niov_refs, (long long)r.binding_refs);
	for (i = 0; i < 3; i++)
		ops->frag_release(b, &frags[i]);
	ops->unbind(b);
	expect_balanced("TX fill");
}

static void unaligned_size(int prefix)
{
	const struct niov_dma_seg segs[] = { { 0x100000, 0x1800 } };
	uint64_t idx, off, size;
	void *b;
	int err = bind_tx(segs, 1, 0x1800, &b);

	if (!prefix) {
		CHECK(err == -EINVAL, "fixed tree took a 0x1800 TX dmabuf: %d", err);
		expect_balanced("rejected bind");
		return;
	}
	CHECK(err == 0, "the tree before the fix refused a 0x1800 TX dmabuf: %d", err);
	if (err)
		return;
	/* tx_vec has one entry; page 1 reads past it */
	err = ops->get_niov_at(b, 0x1000, &idx, &off, &size);
	CHECK(err == -EFAULT || idx >= ops->num_niovs(b), "lookup of page 1 found niov %llu of %llu",
	      (unsigned long long)idx, (unsigned long long)ops->num_niovs(b));
	printf("prefix tree: page 1 of a 0x1800 TX dmabuf -> %s %llu (table of %llu)\n",
	       err ? "error" : "niov", (unsigned long long)idx, (unsigned long long)ops->num_niovs(b));
	ops->unbind(b);
}

int main(int argc, char **argv)
{
	load_plugin(argc, argv, 3, "PLUGIN fixed|prefix");
	/* the probe names the era's rules by the checks the bind has */
	CHECK(ops->rules && !strcmp(ops->rules, strcmp(argv[2], "prefix") ? "baseline" : "baseline-unfixed"),
	      "rules %s", ops->rules ? ops->rules : "none");
	CHECK((ops->caps & (NIOV_CAP_TX | NIOV_CAP_LOOKUP | NIOV_CAP_FILL)) ==
	      (NIOV_CAP_TX | NIOV_CAP_LOOKUP | NIOV_CAP_FILL), "caps %#x", ops->caps);
	tx_fill();
	unaligned_size(!strcmp(argv[2], "prefix"));
	return test_result(!strcmp(argv[2], "prefix") ? "era (b) prefix plugin" : "era (b) fixed plugin");
}
