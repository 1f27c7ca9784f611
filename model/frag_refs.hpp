// The niov references the TX fill took, as the TCP model hands frags around.
//
// The fill takes one reference per frag (get_netmem).  When TCP cuts a frag
// in two (skb_split, skb_shift) the kernel takes one more for the new piece;
// the ABI has no "get", so the suite keeps the count instead: per niov, the
// references the fill took and the pieces alive, and a piece that goes
// while more references than pieces would remain gives one back through
// Impl::frag_release.  Once every piece is gone every reference has been
// given back exactly once.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "impl.hpp"

namespace niov {

class FragRefs {
public:
	explicit FragRefs(Impl &impl) : impl_(impl) {}
	void taken(const Frag &f);  // the fill added @f
	void cut(const Frag &f);    // a piece of a frag of the same niov appeared
	void freed(const Frag &f);  // a piece went
	// References still held (0 once every piece went).
	uint64_t held() const { return held_; }

private:
	// Both count live frags, which the socket model stores, so 32 bits
	// cannot wrap; half the size halves the dense table each input zeroes.
	struct Count {
		uint32_t refs = 0, pieces = 0;
	};
	// A send's niovs are mostly a run of nearby table indices: those from
	// the first niov taken up to kDense past it are counted in place (a
	// hash node per frag was most of a send's allocations; a table from
	// index 0 zeroed half a megabyte for a send near niov 65,536), any
	// other index a plugin names in the map.
	static constexpr uint64_t kDense = uint64_t{1} << 16;
	Count *dense(uint64_t niov) {  // nullptr outside the window
		const uint64_t i = niov - base_;
		return niov >= base_ && i < dense_.size() ? &dense_[i] : nullptr;
	}
	Count *find(uint64_t niov);
	Count &at(uint64_t niov);
	void drop(uint64_t niov);

	Impl &impl_;
	std::vector<Count> dense_;
	uint64_t base_ = 0;  // the window's first index: the first niov counted
	std::unordered_map<uint64_t, Count> sparse_;
	uint64_t held_ = 0;
};

}  // namespace niov
