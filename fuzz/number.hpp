// Boundary-biased numbers.  One tag byte picks a form; most forms land on the
// values the rules are sensitive to (0, 1, 2^k +- 1, multiples of the page and
// niov sizes +- 1, U32_MAX, values next to the dmabuf size or the previous
// element), and the raw forms reach every other 64-bit value.  The encoder
// picks the shortest form that decodes back to the value.
#pragma once

#include <cstdint>

#include "bytes.hpp"

namespace niov::fuzz {

// Two context values a number may be written relative to (e.g. the dmabuf
// size and the end of the previous element), so "just past the end" costs
// two bytes whatever the layout.
struct NumCtx {
	uint64_t ref[2] = {0, 0};
};

uint64_t decode_number(ByteReader &r, const NumCtx &ctx = {});
void encode_number(ByteWriter &w, uint64_t v, const NumCtx &ctx = {});

// Maps any value into [lo, hi]; identity inside, so the encoder can write the
// value itself.
inline uint64_t fit(uint64_t v, uint64_t lo, uint64_t hi) {
	if (v >= lo && v <= hi)
		return v;
	const uint64_t span = hi - lo;
	return span == UINT64_MAX ? v : lo + v % (span + 1);
}

}  // namespace niov::fuzz
