// Structure-aware fuzz inputs: every byte string decodes to a scenario the
// scenario parser would accept, and every scenario in a target's domain
// encodes to bytes that decode back to it.  The byte layout is described in
// decode.cpp; each target (bind, send, config) restricts the domain so that
// its bytes are spent where it looks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

namespace niov::fuzz {

enum class Target : uint8_t { bind, send, config, scenario };

std::string_view name(Target t);
std::optional<Target> parse_target(std::string_view s);

// The decoders' domain limits (the parser allows more; the fuzz loop wants
// small scenarios).
inline constexpr size_t kMaxSegs = 64;
inline constexpr size_t kMaxOps = 256;
inline constexpr size_t kMaxProbes = 32;      // bind: single-element sends
// A probe is a lookup plus the frags of a short range: long ones made the
// bind target as slow as the send target.
inline constexpr uint64_t kMaxProbeLen = 64 << 10;
inline constexpr size_t kMaxSendElems = 1100;  // past UIO_MAXIOV (1024)

// Any bytes -> a scenario (target bind, send or config).
Scenario decode_scenario(const uint8_t *data, size_t size, Target t);

// The same decoding into one scenario kept across inputs: its segment, op
// and iov vectors keep their memory, so the fuzz loop's decoding allocates
// only when an input is bigger than every one before it.  Under ASan the
// per-send iov vectors were the most allocations of a send input.
class ScenarioDecoder {
public:
	// Valid until the next call.
	Scenario &decode(const uint8_t *data, size_t size, Target t);

private:
	Scenario sc_;
	std::vector<std::vector<IovElem>> spare_iovs_;	// cleared, from the previous input's sends
};

// A scenario -> bytes, or an error naming what lies outside the target's
// domain.  Expectations ("expect" lines) and the name are not inputs and are
// dropped.
struct Encoded {
	std::vector<uint8_t> bytes;
	std::string error;  // empty on success
};
Encoded encode_scenario(const Scenario &sc, Target t);

// The scenario's inputs as canonical text: equal texts = equal scenarios up
// to expectations, name and line numbers.
std::string input_text(const Scenario &sc);

}  // namespace niov::fuzz
