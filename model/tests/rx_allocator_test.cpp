// The RX allocator frees gen_pool niovs as gen_pool does: by DMA address, to
// the first chunk in list order that holds it.  Each case would pass under
// a free by index (the model before 8dd905e) only if its assertion were
// wrong, so each is a negative test of that rule.
#include <gtest/gtest.h>

#include "findings.hpp"
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

}  // namespace
}  // namespace niov
