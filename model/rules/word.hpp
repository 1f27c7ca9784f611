// The machine word the rules are written over.
//
// Every rule in rules.hpp is a template over a word backend W, so the same
// source runs concretely (tests, fuzzing: W = Concrete, plain integers) and
// symbolically (proofs: a Z3 bit-vector backend in smt/).  A backend provides:
//
//   types   u64, u32 (unsigned bit-vectors of that width), boolean
//   consts  k64(v), k32(v), kb(v)
//   ops     + - & | ^ ~ == != on same-width words, && || ! on booleans
//           shl/lshr (shift >= width gives 0), ult/ule/ugt/uge, slt32/sge32
//           zext(u32) -> u64, trunc(u64) -> u32, select(c, a, b)
//           ctz64 (64 for 0), is_pow2, ilog2 of a power of two
//   control certainly(b): true only when b is known to hold, so concrete code
//           may leave a bounded loop early while symbolic code runs it fully.
//
// Rules use shifts and masks, never variable multiply or divide, and loops
// whose trip count does not depend on word values.
#pragma once

#include <bit>
#include <cstdint>

namespace niov {

struct Concrete {
	using u64 = uint64_t;
	using u32 = uint32_t;
	using boolean = bool;

	static constexpr u64 k64(uint64_t v) { return v; }
	static constexpr u32 k32(uint32_t v) { return v; }
	static constexpr boolean kb(bool v) { return v; }

	static constexpr u64 shl(u64 a, u64 s) { return s >= 64 ? 0 : a << s; }
	static constexpr u64 lshr(u64 a, u64 s) { return s >= 64 ? 0 : a >> s; }
	static constexpr u32 shl(u32 a, u32 s) { return s >= 32 ? 0 : a << s; }
	static constexpr u32 lshr(u32 a, u32 s) { return s >= 32 ? 0 : a >> s; }

	static constexpr boolean ult(u64 a, u64 b) { return a < b; }
	static constexpr boolean ule(u64 a, u64 b) { return a <= b; }
	static constexpr boolean ugt(u64 a, u64 b) { return a > b; }
	static constexpr boolean uge(u64 a, u64 b) { return a >= b; }
	static constexpr boolean ult(u32 a, u32 b) { return a < b; }
	static constexpr boolean ule(u32 a, u32 b) { return a <= b; }
	static constexpr boolean ugt(u32 a, u32 b) { return a > b; }
	static constexpr boolean uge(u32 a, u32 b) { return a >= b; }
	static constexpr boolean slt32(u32 a, u32 b) {
		return static_cast<int32_t>(a) < static_cast<int32_t>(b);
	}
	static constexpr boolean sge32(u32 a, u32 b) { return !slt32(a, b); }

	static constexpr u64 zext(u32 v) { return v; }
	static constexpr u32 trunc(u64 v) { return static_cast<u32>(v); }

	static constexpr u64 select(boolean c, u64 a, u64 b) { return c ? a : b; }
	static constexpr u32 select(boolean c, u32 a, u32 b) { return c ? a : b; }
	static constexpr boolean select(boolean c, boolean a, boolean b) { return c ? a : b; }

	static constexpr u64 ctz64(u64 v) { return static_cast<u64>(std::countr_zero(v)); }
	static constexpr boolean is_pow2(u64 v) { return v != 0 && (v & (v - 1)) == 0; }
	static constexpr boolean is_pow2(u32 v) { return v != 0 && (v & (v - 1)) == 0; }

	static constexpr bool certainly(boolean b) { return b; }
};

}  // namespace niov
