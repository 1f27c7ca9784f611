// The frag array a plugin's fill writes into: exactly max_skb_frags entries
// in an allocation of their own, filled from the suite's skb before the call
// and copied back after it.  Under ASan it is a heap block with poisoned
// canary frags after the array, so ASan reports an instrumented plugin's
// write past it and the canary an uninstrumented one's; otherwise the
// array ends where an unmapped guard region starts, with a canary before
// it, so a write past the array becomes "wrote outside its frags" (a
// finding) instead of heap corruption the suite would trip over later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "../../plugins/include/niov_impl.h"

namespace niov {

class FragArena {
public:
	FragArena() = default;
	~FragArena();
	FragArena(const FragArena &) = delete;
	FragArena &operator=(const FragArena &) = delete;

	// An array of exactly @max entries starting with a copy of frags[0..nr).
	niov_frag *load(const niov_frag *frags, uint32_t nr, uint32_t max);
	// After the fill: "" or what it wrote outside the array (the canary
	// before it; a write past it never returns here).  Re-arms the canary.
	std::string check_and_rearm();

private:
	void place(uint32_t max);

	unsigned char *map_ = nullptr;	// one read-write page, then the guard
	niov_frag *frags_ = nullptr;
	std::unique_ptr<niov_frag[]> heap_;  // the ASan build's block: the array, then its tail
	uint32_t max_ = 0;
};

}  // namespace niov
