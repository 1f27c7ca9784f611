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
#include <vector>

#include "impl.hpp"

namespace niov {

class FragRefs {
public:
	explicit FragRefs(Impl &impl);
	~FragRefs();
	FragRefs(const FragRefs &) = delete;
	FragRefs &operator=(const FragRefs &) = delete;
	// Inline up to the counting: the model counts nothing, and the call
	// per frag made and per frag freed was 2.5 % of the send target.
	void taken(const Frag &f) {  // the fill added @f
		if (counting_)
			count_taken(f);
	}
	void cut(const Frag &f) {  // a piece of a frag of the same niov appeared
		if (counting_)
			count_cut(f);
	}
	void freed(const Frag &f) {  // a piece went
		if (counting_)
			count_freed(f);
	}
	// References still held (0 once every piece went).
	uint64_t held() const { return held_; }

private:
	void count_taken(const Frag &f);
	void count_cut(const Frag &f);
	void count_freed(const Frag &f);
	// Both count live frags, which the socket model stores, so 32 bits
	// cannot wrap.
	struct Count {
		uint64_t niov = 0;
		uint64_t epoch = 0;  // the run that made the entry (0: none)
		uint32_t refs = 0, pieces = 0;
	};
	// Open addressing over a power-of-two table, at most half full: no
	// allocation per niov and nothing sized by the index.  A hash node per
	// frag was most of a send's allocations; a dense table from index 0
	// zeroed half a megabyte for a send near niov 65,536.  Tables are kept
	// per thread from one run to the next with their entries in place: an
	// entry of another run (another epoch) is an empty slot, so a run starts
	// on a table as large as an earlier run needed without clearing it.
	// Zeroing and regrowing a table from 16 slots on every input was a
	// tenth of the send target with a plugin under ASan.  So the table's
	// size, its probe lengths and when it grows follow earlier runs: find()
	// and at() stay out of line and without coverage
	// (fuzz/coverage-ignore.txt), and the edges of taken(), cut() and
	// freed() say what the references did.
	[[gnu::noinline]] Count *find(uint64_t niov);
	[[gnu::noinline]] Count &at(uint64_t niov);
	size_t slot_of(uint64_t niov) const;
	bool live(const Count &c) const { return c.epoch == epoch_; }
	static std::vector<Count> &kept_table();

	Impl &impl_;
	// Off for an implementation with nothing to release (the model): the
	// counting was a tenth of its run beside a plugin in the send target.
	const bool counting_;
	const uint64_t epoch_;
	std::vector<Count> table_;
	size_t used_ = 0;
	uint64_t held_ = 0;
};

}  // namespace niov
