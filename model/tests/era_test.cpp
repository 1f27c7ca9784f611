// The kernel eras the presets describe (RULES.md "Presets"): what each one
// answers, computed by hand from kernel-semantics.md §1.2 / §1.3 and the
// 6.12 sources, and the invariants the unsound ones break.
#include <gtest/gtest.h>

#include <algorithm>

#include "findings.hpp"
#include "impl.hpp"
#include "report.hpp"
#include "test_scenarios.hpp"

namespace niov {
namespace {

Scenario parse(const std::string &text) { return test::parse(text, "era.scn"); }

RunReport run(const std::string &text) { return run_scenario(parse(text), nullptr); }

using test::ids;

bool has(const Trace &t, Inv inv) {
	const auto v = ids(t);
	return std::find(v.begin(), v.end(), std::string(id(inv))) != v.end();
}

// 6.12 has no bind-tx and no io_uring zcrx.
TEST(Linux612, NoTxNoZcrx) {
	auto tx = run("rules linux-6.12\nsg 0x100000 64K\nsend 0+4K\n");
	EXPECT_EQ(tx.model.bind.err, -kEOPNOTSUPP);
	EXPECT_EQ(tx.model.ops.at(0).result, -kEINVAL);  // no TX binding to send on
	EXPECT_TRUE(tx.clean());
	auto z = run("rules linux-6.12\ndir zcrx\nsg 0x100000 64K\n");
	EXPECT_EQ(z.model.bind.err, -kEINVAL);
}

// No rx-buf-size attribute: the netlink policy rejects it (-EINVAL).
TEST(Linux612, NoRxBufSize) {
	auto r = run("rules linux-6.12\ndir rx\nrx_buf_size 4K\nsg 0x100000 64K\n");
	EXPECT_EQ(r.model.bind.err, -kEINVAL);
}

// A page-aligned table binds as in baseline: PAGE_SIZE niovs, order 0.
TEST(Linux612, AlignedTableIsClean) {
	auto r = run("rules linux-6.12\ndir rx\nsg 0x100000 4M\nsg 0x800000 2M\n");
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.bind.niov_shift, 12u);
	EXPECT_EQ(r.model.bind.num_niovs, 1536u);
	EXPECT_EQ(r.model.pp_order, 0u);
	EXPECT_TRUE(r.clean());
	// 64 KiB pages: 96 niovs of 64 KiB.
	auto big = run("rules linux-6.12\npage_shift 16\ndir rx\nsg 0x100000 4M\nsg 0x800000 2M\n");
	EXPECT_EQ(big.model.bind.num_niovs, 96u);
}

// The page_pool must be order 0 (-E2BIG otherwise).
TEST(Linux612, OrderZeroOnly) {
	auto r = run("rules linux-6.12\ndir rx\npp_order 1\nsg 0x100000 64K\n");
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.queue_err, -kE2BIG);
}

// No sg length check: 0x1800 + 0x4000 binds with 1 + 4 niovs; the second
// entry's niovs sit at dmabuf offsets 0x1800, 0x2800, ... while their index
// says 0x1000, 0x2000, ...: niov 1's DMA address is not the byte map at
// offset 0x1000.  A known finding of the preset.
TEST(Linux612, TruncationIsItsFinding) {
	const Scenario sc = parse("rules linux-6.12\ndir rx\nsg 0x100000 0x1800\nsg 0x900000 0x4000\n");
	const auto r = run_scenario(sc, nullptr);
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.bind.num_niovs, 5u);
	EXPECT_TRUE(has(r.model, Inv::bind_niov_dma));
	for (const auto &v : r.model.violations)
		EXPECT_TRUE(is_known_finding(sc, v.invariant)) << v.invariant << ": " << v.detail;
	// Two short entries: 1 + 1 niovs for a dmabuf of 3 pages.
	const Scenario two = parse("rules linux-6.12\ndir rx\nsg 0x100000 0x1800\nsg 0x900000 0x1800\n");
	const auto t = run_scenario(two, nullptr);
	EXPECT_EQ(t.model.bind.num_niovs, 2u);
	EXPECT_TRUE(has(t.model, Inv::bind_niov_count));
	EXPECT_TRUE(is_known_finding(two, Inv::bind_niov_count));
	// The same tables are -EINVAL since the fix (baseline).
	auto fixed = run("rules baseline\ndir rx\nsg 0x100000 0x1800\nsg 0x900000 0x4000\n");
	EXPECT_EQ(fixed.model.bind.err, -kEINVAL);
	// ... and are not explained there.
	Scenario as_baseline = sc;
	as_baseline.cfg.preset = Preset::baseline;
	as_baseline.cfg.policy = preset_policies(Preset::baseline);
	EXPECT_FALSE(is_known_finding(as_baseline, Inv::bind_niov_dma));
}

TEST(Linux612, ExplainNamesTheTruncation) {
	const auto r = run_scenario(parse("rules linux-6.12\ndir rx\nsg 0x100000 0x1800\nsg 0x900000 0x4000\n"),
				    nullptr, {true, 200});
	EXPECT_NE(r.model.explain.find("sg entry 0 (0x1800 bytes) gives 1 niovs"), std::string::npos)
		<< r.model.explain;
	const auto tx = run_scenario(parse("rules linux-6.12\nsg 0 4K\n"), nullptr, {true, 200});
	EXPECT_NE(tx.model.explain.find("no bind-tx"), std::string::npos) << tx.model.explain;
}

// The TX era before the fix: a dmabuf that is not whole pages binds and the
// lookup of its last partial page reads past tx_vec (lookup.index_in_table).
TEST(BaselineUnfixed, PartialLastPageOverReadsTxVec) {
	const Scenario sc = parse("rules baseline-unfixed\nsg 0x100000 0x1800\n");
	const auto r = run_scenario(sc, nullptr);
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.bind.num_niovs, 1u);
	EXPECT_TRUE(has(r.model, Inv::lookup_index_in_table));
	EXPECT_TRUE(has(r.model, Inv::sizing_aligns_dmabuf));
	for (const auto &v : r.model.violations)
		EXPECT_TRUE(is_known_finding(sc, v.invariant)) << v.invariant;
	EXPECT_EQ(run("rules baseline\nsg 0x100000 0x1800\n").model.bind.err, -kEINVAL);
}

// ... and an sg entry that is not whole pages puts the next niovs off the
// byte map.
TEST(BaselineUnfixed, ShortSgEntryMisplacesNiovs) {
	const auto r = run("rules baseline-unfixed\nsg 0x100000 0x1800\nsg 0x900000 0x4000\nsend 0x1000+0x100\n");
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_TRUE(has(r.model, Inv::lookup_byte_map));
	EXPECT_TRUE(has(r.model, Inv::frag_payload) || has(r.model, Inv::lookup_byte_map));
}

// Whole pages: the unfixed era is indistinguishable from baseline.
TEST(BaselineUnfixed, AlignedTablesMatchBaseline) {
	const std::string body = "sg 0x100000 64K\nsg 0x900000 8K\nsend 0+70000\nack 5000\nsplit 100\nfree\n";
	const auto u = run("rules baseline-unfixed\n" + body);
	const auto b = run("rules baseline\n" + body);
	EXPECT_TRUE(u.clean());
	EXPECT_TRUE(diff_traces(b.model, u.model).empty());
}

// baseline (after the fix), §1.2: TX checks size then lengths; RX checks
// lengths only; addresses never.
TEST(Baseline, MatchesTheFixedGenpoolBind) {
	EXPECT_EQ(run("rules baseline\nsg 0x100800 8K\n").model.bind.err, 0);  // address unchecked
	EXPECT_EQ(run("rules baseline\ndir rx\nsg 0x100000 8K\ndmabuf_size 0x2800\n").model.bind.err, 0);
	EXPECT_EQ(run("rules baseline\nsg 0x100000 8K\ndmabuf_size 0x2800\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("rules baseline\ndir rx\nsg 0x100000 0x1800\nsg 0 0x800\n").model.bind.err, -kEINVAL);
}

// net-next (freelist bind, niov_shift), §1.3: size and every entry's address
// and length aligned to the niov size, in both directions; PAGE_SIZE lookup.
TEST(NetNext, MatchesTheFreelistBind) {
	EXPECT_EQ(run("rules net-next\nsg 0x100800 8K\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("rules net-next\ndir rx\nsg 0x100000 8K\ndmabuf_size 0x2800\n").model.bind.err, -kEINVAL);
	auto r = run("rules net-next\ndir rx\nrx_buf_size 16K\nsg 0x100000 64K\n");
	EXPECT_EQ(r.model.bind.niov_shift, 14u);
	EXPECT_EQ(r.model.pp_order, 2u);
	EXPECT_TRUE(r.clean());
	EXPECT_EQ(run("rules net-next\ndir rx\nrx_buf_size 16K\nsg 0x102000 64K\n").model.bind.err, -kEINVAL);
}

}  // namespace
}  // namespace niov
