// The oracle's per-niov walks of the sg table (byte_map, niov_dma,
// niov_virt) answered by binary search over the table's prefix sums.  The
// RX allocator property asks all three for every niov handed out, up to
// 4,097 per case over tables of hundreds of entries: the walks were 43 % of
// its instructions.  The walks stay the specification; oracle_lookup_test
// holds this to them on random tables.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "scenario.hpp"

namespace niov::props::oracle {

class SegLookup {
public:
	// A table of 1 << @shift niovs over @sc's sg entries.
	SegLookup(const Scenario &sc, unsigned shift);
	std::optional<uint64_t> byte_map(uint64_t virt) const;
	std::optional<uint64_t> niov_dma(uint64_t num_niovs, uint64_t idx) const;
	std::optional<uint64_t> niov_virt(uint64_t num_niovs, uint64_t idx) const;

private:
	using u128 = unsigned __int128;
	// The entry holding niov @idx, or none.  Entries are disjoint ranges of
	// niovs in table order, so only the last one starting at or before
	// @idx can hold it.
	std::optional<size_t> entry_of_niov(uint64_t idx) const;

	const std::vector<DmaSeg> &segs_;
	unsigned shift_;
	bool freelist_;
	std::vector<u128> first_niov_;  // per entry: niovs of the entries before it
	std::vector<u128> start_;       // per entry: bytes of the entries before it
};

}  // namespace niov::props::oracle
