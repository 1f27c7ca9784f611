// The RX allocator check: allocate every niov of an RX binding, check each
// against the byte map, free them all, allocate again (RULES.md "RX
// allocator").
#pragma once

#include "checks.hpp"

namespace niov {

// Sweeps @max_niovs niovs at most: a larger binding is not swept and the
// trace says so (RunOptions::rx_sweep_max_niovs, kRxSweepMaxNiovs).
void sweep_rx_allocator(Impl &impl, Checker &chk, Trace &t, uint64_t max_niovs);

}  // namespace niov
