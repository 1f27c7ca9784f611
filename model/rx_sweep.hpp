// The RX allocator check: allocate every niov of an RX binding, check each
// against the byte map, free them all, allocate again (RULES.md "RX
// allocator").
#pragma once

#include "checks.hpp"

namespace niov {

// Tables above this are not swept (the trace says so): gen_pool's first fit
// costs O(n) per allocation, and the fuzz targets run this per input.
inline constexpr uint64_t kRxSweepMaxNiovs = 4096;

void sweep_rx_allocator(const Scenario &sc, Impl &impl, Checker &chk, Trace &t);

}  // namespace niov
