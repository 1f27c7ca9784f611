// The RX allocator frees gen_pool niovs as gen_pool does: by DMA address, to
// the first chunk in list order that holds it.  Each case would pass under
// a free by index (the model before 8dd905e) only if its assertion were
// wrong, so each is a negative test of that rule.
#include <gtest/gtest.h>

#include <random>

#include "findings.hpp"
#include "report.hpp"
#include "rx_allocator.hpp"
#include "test_scenarios.hpp"

namespace niov {
namespace {

using CSegs = std::vector<rules::Seg<Concrete>>;

// Hands out everything, frees it all, and counts what a second round gets.
uint64_t second_round(const CSegs &segs, uint64_t num_niovs) {
	RxAllocator a;
	a.reset(preset_policies(Preset::baseline), segs, 12, num_niovs);
	std::vector<uint64_t> got;
	for (auto r = a.alloc(); r.err == 0; r = a.alloc())
		got.push_back(r.niov.idx);
	for (uint64_t i : got)
		a.free(i);
	uint64_t again = 0;
	for (auto r = a.alloc(); r.err == 0; r = a.alloc())
		++again;
	return again;
}

TEST(RxAllocator, HonestTableComesBackWhole) {
	EXPECT_EQ(second_round({{0x100000, 0x4000}, {0x200000, 0x2000}}, 6), 6u);
}

TEST(RxAllocator, OverlappingEntriesLoseTheSharedNiov) {
	// Entry 0 ends at 0x21000, entry 1 starts at 0x20000: both have a niov at
	// DMA 0x20000, and both frees go to entry 1's chunk (the list head).
	EXPECT_EQ(second_round({{0x11000, 0x10000}, {0x20000, 0x20000}}, 48), 47u);
}

TEST(RxAllocator, AnEntryPastTwoToTheSixtyFourFreesNothing) {
	// end_addr wraps below start_addr: no chunk holds any of its niovs.
	EXPECT_EQ(second_round({{0xfffffffffffff001, 0x1000}}, 1), 0u);
	EXPECT_EQ(second_round({{0x100000, 0x2000}, {0xfffffffffffff001, 0x1000}}, 3), 2u);
}

TEST(RxAllocator, TheKnownFindingCoversExactlyTheseTables) {
	auto rx = [](const char *segs) { return test::parse(std::string("rules baseline\ndir rx\n") + segs); };
	EXPECT_FALSE(genpool_frees_astray(rx("sg 0x100000 0x4000\nsg 0x200000 0x2000\n")));
	EXPECT_FALSE(genpool_frees_astray(rx("sg 0x0 0x1000\n")));  // address 0: its own finding
	EXPECT_TRUE(genpool_frees_astray(rx("sg 0x11000 0x10000\nsg 0x20000 0x20000\n")));
	EXPECT_TRUE(genpool_frees_astray(rx("sg 0xfffffffffffff001 0x1000\n")));
	EXPECT_TRUE(genpool_frees_astray(rx("sg 0x1000 0x1000\nsg 0x0 0x0\n")));
	EXPECT_FALSE(genpool_frees_astray(test::parse("rules net-next\ndir rx\nsg 0x11000 0x10000\nsg 0x20000 0x20000\n")));
}

// gen_pool restated the slow way, as the model did before its allocator got
// indexed: every alloc walks the list from the head and every chunk from its
// first niov, every free walks the list for the first chunk holding the
// address.  The fast allocator must give the same answer to every call.
class ListWalkPool {
public:
	ListWalkPool(const CSegs &segs, unsigned shift, uint64_t num_niovs) : shift_(shift) {
		uint64_t first = 0;
		for (const auto &s : segs) {
			const uint64_t count = first < num_niovs ? std::min(s.len >> shift, num_niovs - first) : 0;
			chunks_.push_back({first, s.addr, s.len, std::vector<bool>(count)});
			first += s.len >> shift;
		}
	}
	RxAllocResult alloc() {
		uint64_t virt = 0;
		std::vector<uint64_t> virts;
		for (const auto &c : chunks_) {
			virts.push_back(virt);
			virt += c.len;
		}
		for (size_t k = chunks_.size(); k-- > 0;) {
			auto &c = chunks_[k];
			for (uint64_t j = 0; j < c.taken.size(); ++j) {
				if (c.taken[j])
					continue;
				c.taken[j] = true;
				const RxNiov n{c.first + j, virts[k] + (j << shift_), c.addr + (j << shift_)};
				return n.dma ? RxAllocResult{0, n} : RxAllocResult{-kENOMEM, {}};
			}
		}
		return {-kENOMEM, {}};
	}
	bool free(uint64_t idx) {
		const Chunk *own = nullptr;
		for (const auto &c : chunks_)
			if (idx >= c.first && idx - c.first < c.taken.size())
				own = &c;
		if (!own || !own->taken[idx - own->first])
			return false;
		const uint64_t dma = own->addr + ((idx - own->first) << shift_);
		for (size_t k = chunks_.size(); k-- > 0;) {
			auto &c = chunks_[k];
			const uint64_t end = c.addr + c.len - 1;
			if (dma < c.addr || dma > end)
				continue;
			const uint64_t j = (dma - c.addr) >> shift_;
			if (dma + ((uint64_t{1} << shift_) - 1) > end || j >= c.taken.size() || !c.taken[j])
				return false;
			c.taken[j] = false;
			return true;
		}
		return false;
	}

private:
	struct Chunk {
		uint64_t first, addr, len;
		std::vector<bool> taken;
	};
	unsigned shift_;
	std::vector<Chunk> chunks_;
};

TEST(RxAllocator, AnswersEveryCallAsTheListWalkDoes) {
	std::mt19937_64 rng(20261201);	// fixed: the same 3,000 tables every run
	auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
	for (int table = 0; table < 3000; ++table) {
		CSegs segs(1 + pick(6));
		for (auto &s : segs) {
			// Small addresses so entries overlap often; some at 0, near 2^64, empty.
			const uint64_t r = pick(8);
			s.addr = r == 0 ? 0 : r == 1 ? UINT64_MAX - pick(4) * 0x1000 : pick(16) * 0x1000;
			s.len = pick(6) * 0x1000;
		}
		uint64_t total = 0;
		for (const auto &s : segs)
			total += s.len >> 12;
		const uint64_t num_niovs = pick(total + 2);
		RxAllocator fast;
		fast.reset(preset_policies(Preset::baseline), segs, 12, num_niovs);
		ListWalkPool slow(segs, 12, num_niovs);
		for (int call = 0; call < 60; ++call) {
			if (pick(3)) {
				const auto a = fast.alloc(), b = slow.alloc();
				ASSERT_EQ(a.err, b.err) << "table " << table << " call " << call;
				ASSERT_EQ(a.niov, b.niov) << "table " << table << " call " << call;
			} else {
				const uint64_t idx = pick(total + 2);
				ASSERT_EQ(fast.free(idx), slow.free(idx)) << "table " << table << " free " << idx;
			}
		}
	}
}

// The sweep's reach is the run's (the fuzz harness sweeps less per input
// than a scenario replay): a binding one niov past it is not swept and the
// trace says why; one at it is swept whole.
TEST(RxSweep, ReachesExactlyAsFarAsTheRunAllows) {
	const Scenario sc = test::parse("rules baseline\ndir rx\nsg 0x100000 32K\n", "reach.scn");
	ModelImpl model;
	RunOptions opts;
	opts.rx_sweep_max_niovs = 8;
	const Trace at = trace_scenario(sc, model, opts);
	EXPECT_TRUE(at.rx_alloc.ran);
	EXPECT_EQ(at.rx_alloc.rounds[0].handed, 8u);
	EXPECT_TRUE(at.not_run.empty());
	opts.rx_sweep_max_niovs = 7;
	const Trace past = trace_scenario(sc, model, opts);
	EXPECT_FALSE(past.rx_alloc.ran);
	ASSERT_EQ(past.not_run.size(), 1u);
	EXPECT_EQ(past.not_run[0], "RX allocator (8 niovs, more than the sweep's 7)");
}

}  // namespace
}  // namespace niov
