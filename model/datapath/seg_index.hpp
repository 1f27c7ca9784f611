// The byte map and the niov table of a segment list answered by binary
// search over prefix sums: the answers of rules::byte_map and
// rules::niov_dma (the folds the proofs reason about) in O(log segments)
// instead of a walk over every segment per frag and probe.  A table whose
// running offsets wrap the 64-bit space (an exporter lying about lengths)
// has no sorted prefix; it falls back to the folds.
#pragma once

#include <cstdint>
#include <vector>

#include "segs.hpp"

namespace niov {

class SegIndex {
public:
	SegIndex() = default;
	// @niov_shift: the binding's, for niov_dma; 64 = no niov table.
	explicit SegIndex(std::vector<CSeg> segs, unsigned niov_shift = 64);

	rules::Addr<Concrete> byte_map(uint64_t virt) const;
	// Does [virt, virt + len) sit at [dma, dma + len) in the byte map, byte
	// for byte (across as many segments as it spans)?
	bool linear(uint64_t virt, uint64_t len, uint64_t dma) const;
	// byte_map(virt), and whether [virt, virt + len) sits linearly from
	// there: one search for the two questions a frag's check asks.
	struct Run {
		bool mapped;
		uint64_t dma;
		bool linear;
	};
	Run byte_map_run(uint64_t virt, uint64_t len) const;
	rules::Addr<Concrete> niov_dma(uint64_t num_niovs, uint64_t idx) const;

	const std::vector<CSeg> &segs() const { return segs_; }

private:
	size_t holder(uint64_t virt) const;
	// linear() from segment @i, which starts at dmabuf offset @start.
	bool linear_from(size_t i, uint64_t start, uint64_t virt, uint64_t len, uint64_t dma) const;

	// Built afresh for every run: storage from the thread's BufferStash.
	StashedVector<CSeg> segs_;
	unsigned shift_ = 64;
	StashedVector<uint64_t> starts_;  // dmabuf offset of each segment
	StashedVector<uint64_t> firsts_;  // first niov index of each segment
	bool starts_sorted_ = true;
	bool firsts_sorted_ = true;
};

}  // namespace niov
