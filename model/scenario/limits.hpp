// The documented bounds on what one scenario may ask of the suite (README,
// "Limits").  Each keeps a run's memory and time linear in what the file
// says and bounded in any case; going past one is bad input (exit 2) with
// one `file:line: ... exceeds N (limit)` line, never a slow or huge run.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace niov {

// The parser's: bytes of one input (also what `corpus decode` reads),
// operations, sg entries, iovec elements of one send.
inline constexpr uint64_t kMaxInputBytes = uint64_t{16} << 20;
inline constexpr uint64_t kMaxScenarioOps = 100000;
inline constexpr uint64_t kMaxScenarioSegs = 4096;
inline constexpr uint64_t kMaxSendElems = 4096;

// The run's: frags and skbs the sends of one scenario build in all.  Every
// one is reported (replay, --json, the traces the engines compare), so these
// bound a run's memory: at the limit a replay with a plugin and --json stays
// under 256 MB.  100,000 single-frag sends fit; a 2 GiB send cut at every
// 4 KiB page (524,288 frags) does not.
inline constexpr uint64_t kMaxScenarioFrags = uint64_t{1} << 18;
inline constexpr uint64_t kMaxScenarioSkbs = uint64_t{1} << 18;
// The RX allocator sweep's (rx_sweep.hpp): larger bindings are not swept
// and the trace says so.  gen_pool's first fit costs O(n) per allocation.
inline constexpr uint64_t kRxSweepMaxNiovs = 4096;

struct LimitError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "file:line: WHAT exceeds N[ UNIT] (limit)"
std::string limit_message(std::string_view file, uint32_t line, std::string_view what, uint64_t limit,
			  std::string_view unit = {});

}  // namespace niov
