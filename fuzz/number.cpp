#include "number.hpp"

#include <array>
#include <bit>
#include <vector>

namespace niov::fuzz {

namespace {

// Tag byte: form in the top 3 bits, a parameter in the low 5.
enum Form : uint8_t { small, power, multiple, relative, constant, varint, raw32, raw64 };

// Page sizes, the niov sizes, bnxt's frag cap, a GiB and the MSS (acks and
// splits at segment boundaries).
constexpr std::array<uint64_t, 8> kUnits{4096, 16384, 65536, 2u << 20, 1u << 20, 32768, 1u << 30, 1448};
constexpr std::array<uint64_t, 8> kConstants{
	UINT32_MAX, UINT64_MAX, INT32_MAX, 0xffff, 16383, 65160, 522728, uint64_t{1} << 63};
constexpr std::array<uint64_t, 3> kDelta{0, UINT64_MAX /* -1 */, 1};

uint8_t tag(Form f, unsigned param) { return static_cast<uint8_t>((f << 5) | (param & 31)); }

}  // namespace

uint64_t decode_number(ByteReader &r, const NumCtx &ctx) {
	const uint8_t t = r.byte();
	const unsigned p = t & 31;
	switch (static_cast<Form>(t >> 5)) {
	case small:
		return p;
	case power:
		return (uint64_t{1} << (r.byte() & 63)) + kDelta[p % 3];
	case multiple: {
		const uint64_t unit = kUnits[p & 7];
		const uint64_t d = kDelta[(p >> 3) % 3];
		return r.varint() * unit + d;
	}
	case relative: {
		const uint64_t ref = ctx.ref[p & 1];
		const uint64_t d = r.varint();
		return (p & 2) ? ref - d : ref + d;
	}
	case constant:
		return kConstants[p & 7] + kDelta[(p >> 3) % 3];
	case varint:
		return r.varint();
	case raw32:
		return r.fixed(4);
	case raw64:
		return r.fixed(8);
	}
	return 0;
}

void encode_number(ByteWriter &w, uint64_t v, const NumCtx &ctx) {
	// Every candidate encoding of v; the shortest wins (ties: the first).
	std::vector<std::vector<uint8_t>> cands;
	auto add = [&cands](std::initializer_list<uint8_t> head, bool with_varint, uint64_t x) {
		ByteWriter c;
		for (uint8_t b : head)
			c.byte(b);
		if (with_varint)
			c.varint(x);
		cands.push_back(c.take());
	};
	if (v < 32)
		add({tag(small, static_cast<unsigned>(v))}, false, 0);
	for (unsigned i = 0; i < kConstants.size(); ++i)
		for (unsigned j = 0; j < kDelta.size(); ++j)
			if (kConstants[i] + kDelta[j] == v)
				add({tag(constant, i | (j << 3))}, false, 0);
	for (unsigned j = 0; j < kDelta.size(); ++j) {
		const uint64_t x = v - kDelta[j];
		if (std::has_single_bit(x))
			add({tag(power, j), static_cast<uint8_t>(std::countr_zero(x))}, false, 0);
	}
	for (unsigned r = 0; r < 2; ++r) {
		add({tag(relative, r)}, true, v - ctx.ref[r]);
		add({tag(relative, r | 2)}, true, ctx.ref[r] - v);
	}
	for (unsigned i = 0; i < kUnits.size(); ++i)
		for (unsigned j = 0; j < kDelta.size(); ++j) {
			const uint64_t x = v - kDelta[j];
			if (x % kUnits[i] == 0)
				add({tag(multiple, i | (j << 3))}, true, x / kUnits[i]);
		}
	add({tag(varint, 0)}, true, v);
	{
		ByteWriter c;
		c.byte(tag(raw64, 0));
		c.fixed(v, 8);
		cands.push_back(c.take());
	}
	const std::vector<uint8_t> *best = &cands.back();
	for (const auto &c : cands)
		if (c.size() < best->size())
			best = &c;
	w.append(*best);
}

}  // namespace niov::fuzz
