// splitmix64's finalizer: every input bit moves about half the output bits.
// One definition for the property generators' value stream; its golden
// gamma is also the odd multiplier of the frag-refs hash and the send digest.
#pragma once

#include <cstdint>

namespace niov {

inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ull;

inline constexpr uint64_t mix64(uint64_t z) {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

}  // namespace niov
