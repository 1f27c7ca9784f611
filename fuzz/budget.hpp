// How much work a scenario asks of the model, so the fuzz loop can skip the
// few inputs that would take milliseconds (a gigabyte moved in 1-byte frags)
// instead of timing out on them.
#pragma once

#include <cstdint>

#include "scenario.hpp"

namespace niov::fuzz {

// Upper bound on the frags and skbs the sends can build, from the input
// alone: one frag per page (or smaller limit) of every byte inside the
// dmabuf.  An era whose lookup has no bounds check runs a send on past the
// dmabuf's end, so the bound can be wrong; the run enforces the budget.
uint64_t work_estimate(const Scenario &sc);

// The frags, and separately the skbs, one input's sends may build: an input
// whose estimate is over is skipped, a run that goes past it stops
// (RunOptions::max_frags, max_skbs) and the input is not kept.
// 2^12: at 2^14 the inputs near the budget (1-byte frags, a size_goal of a
// few bytes), 1 % of a corpus, took a third of the bind target's time, and
// at 2^12 libFuzzer reached the same edges in the same number of runs
// (bind, 300,000 runs from the seeds: 643 either way) at 1.5x the runs per
// CPU second (send 1.7x, bind with the net_next plugin 1.8x).  Every seed
// fits (the 3 MiB selftest send in pages: 819); sends of more skbs, such as
// corpora/regressions/fuzz-bind-sendmsg-guard.scn (6,250), are the
// scenarios' to replay.
inline constexpr uint64_t kMaxWork = uint64_t{1} << 12;
// Plugins allocate and fill their niov table on every bind; past this many
// niovs (the model's bind says how many) the fuzz loop checks the model
// alone.  At 2^18 the bind target ran 277 exec/s with the plugin; 2^14 is
// still a 64 MiB dmabuf of 4 KiB niovs or 32 GiB of 2 MiB ones.
inline constexpr uint64_t kMaxPluginNiovs = uint64_t{1} << 14;
// The RX allocator sweep's reach per input (RunOptions::rx_sweep_max_niovs;
// the scenarios and the properties sweep up to kRxSweepMaxNiovs).  The
// sweep is two rounds of n + 1 allocations, n checks and n frees, and the
// fuzzer keeps realistic sizes (a 16 MiB dmabuf of 4 KiB niovs is 4,096):
// in 10 s of the bind target from the seeds, the 12 % of sweeps above
// 1,024 niovs were 70 % of the niovs swept, and the sweep a fifth of the
// target's time.  1,024 still holds every index of 10 bits and every
// allocator shape the sweep tells apart (chunks, holes, address 0).
inline constexpr uint64_t kFuzzRxSweepMaxNiovs = 1024;

bool within_budget(const Scenario &sc);

// Is the plugin's bind cheap enough to run?  Its niov table is sized from
// the inputs before any check that may fail (the kernel allocates, then
// walks the segments), so the cap is judged from the niov size the rules
// give these inputs, whether the model's bind then succeeds or not: the
// dmabuf's table and each sg entry's.  A table past the allocation limit
// fails before it is filled and costs nothing.
bool plugin_affordable(const Scenario &sc);

}  // namespace niov::fuzz
