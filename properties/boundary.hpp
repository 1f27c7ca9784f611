// Boundary values.  RapidCheck draws integers uniformly (or scaled by size)
// and almost never lands on 0, 2^k +- 1, a page multiple +- 1, 2 MiB +- 1,
// U32_MAX or INT_MAX by itself (reference anchors, RapidCheck section), so
// every numeric generator here mixes them in explicitly.  Each generator
// shrinks towards its first, simplest alternative.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "mix64.hpp"

namespace niov::props {

inline constexpr uint64_t kSZ2M = uint64_t{1} << 21;
inline constexpr uint64_t kU32Max = UINT32_MAX;
inline constexpr uint64_t kIntMax = INT32_MAX;

// The fixed edges for a machine with pages of @page bytes: 0, 1, page and
// 2 MiB multiples +- 1, U32_MAX, INT_MAX, 2^32, 2^63, U64_MAX ...
const std::vector<uint64_t> &edge_values(uint64_t page);

// One of edge_values(page), or 2^k + {0, -1, +1} for any k < 64.
rc::Gen<uint64_t> edge_u64(uint64_t page);

// @v moved by one of {0, -1, +1, -page, +page} (wrapping, like C).
rc::Gen<uint64_t> around(uint64_t v, uint64_t page);

// k * unit for k in [0, max_mult], then moved by around().
rc::Gen<uint64_t> multiple_around(uint64_t unit, uint64_t max_mult, uint64_t page);

// splitmix64: many values from one RapidCheck choice, where a choice per
// value would cost more than the property (a large sg table, a send of
// more than UIO_MAXIOV elements).  The case still shrinks by its seed.
struct SplitMix64 {
	uint64_t s;
	uint64_t next() {
		return niov::mix64(s += niov::kGoldenGamma);
	}
};

// The same values drawn in place, inside a generator (rc::gen::exec) or a
// property: only the alternative chosen is built, where the Gen forms
// build every alternative on every draw (most of a send's generation
// time).  The choices shrink as the Gen forms' do.
size_t draw_choice(std::initializer_list<size_t> weights);  // an index, towards 0
uint64_t draw_edge_u64(uint64_t page);
uint64_t draw_around(uint64_t v, uint64_t page);
uint64_t draw_multiple_around(uint64_t unit, uint64_t max_mult, uint64_t page);

}  // namespace niov::props

namespace niov::props {

// A uniform integer in [min, max), shrinking towards min.  rc::gen::inRange
// scales its range with the case size (size 0 gives min only, and sizes
// run 0..99, so the top of a range is never reached): every choice here
// goes through this instead.
//
// inRange's own steps at size 100, in one Gen: the values and shrinks are
// exactly resize(100, inRange(min, max))'s, so a seed draws the same case,
// but a draw builds one Gen where the pair built two, and the tcp.*
// properties draw dozens per case (allocation was a fifth of their time).
template <typename T>
rc::Gen<T> uniform(T min, T max) {
	return rc::Gen<T>([=](const rc::Random &random, int) {
		if (max <= min)
			throw rc::GenerationFailure("Invalid range [" + std::to_string(min) + ", " +
						    std::to_string(max) + ")");
		const auto span = rc::gen::detail::scaleInteger(static_cast<rc::Random::Number>(max) -
									static_cast<rc::Random::Number>(min) - 1,
								100) +
				  1;
		const auto value = static_cast<T>((rc::Random(random).next() % span) + min);
		return rc::shrinkable::shrinkRecur(value, [=](T x) { return rc::shrink::towards<T>(x, min); });
	});
}

// One of @values, shrinking towards the first (rc::gen::element with mixed
// argument types and lvalues, spelled simply).
template <typename T>
rc::Gen<T> pick(std::initializer_list<T> values) {
	return rc::gen::elementOf(std::vector<T>(values));
}

// Weighted choices that shrink.  rc::gen::weightedOneOf/weightedElement
// never shrink the choice itself, so a failing case keeps whatever branch
// it drew (an odd MSS, an unusual device); here the choice is an index
// that shrinks towards the first alternative: list the simplest first.
template <typename T>
rc::Gen<T> weighted(std::vector<std::pair<size_t, rc::Gen<T>>> alts) {
	size_t total = 0;
	for (const auto &a : alts)
		total += a.first;
	return rc::gen::mapcat(uniform<size_t>(0, total), [alts](size_t x) {
		for (const auto &a : alts) {
			if (x < a.first)
				return a.second;
			x -= a.first;
		}
		return alts.back().second;
	});
}

template <typename T>
rc::Gen<T> weighted_pick(std::vector<std::pair<size_t, T>> alts) {
	std::vector<std::pair<size_t, rc::Gen<T>>> g;
	for (const auto &a : alts)
		g.emplace_back(a.first, rc::gen::just(a.second));
	return weighted<T>(std::move(g));
}

// false or true, whatever the case size.
inline rc::Gen<bool> coin() { return pick<bool>({false, true}); }

// pick() and weighted_pick() drawn in place (see draw_choice).
template <typename T>
T draw_pick(std::initializer_list<T> values) {	// pick()'s values
	return values.begin()[*uniform<size_t>(0, values.size())];
}
template <typename T>
T draw_weighted_pick(std::initializer_list<std::pair<size_t, T>> alts) {  // weighted_pick()'s
	size_t x = *uniform<size_t>(0, [&] {
		size_t total = 0;
		for (const auto &a : alts)
			total += a.first;
		return total;
	}());
	for (const auto &a : alts) {
		if (x < a.first)
			return a.second;
		x -= a.first;
	}
	return (alts.end() - 1)->second;
}

}  // namespace niov::props
