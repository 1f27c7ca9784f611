// The symbolic word backend: model/rules/word.hpp's interface over Z3 bit-vectors.
//
// rules.hpp instantiated with Sym builds Z3 terms instead of computing
// values, so every lemma is about the rule code the tests and fuzzers run
// (W = Concrete), not about a second encoding.  u64/u32 are bit-vectors of
// width 64/32 and boolean is a Z3 Bool; all three are z3::expr, and a width
// mix-up in a rule throws z3::exception at instantiation time (the
// cross-check test instantiates every rule function).
//
// The constants need a context: a SymScope names the current one for this
// thread, so solver threads each own a context.
#pragma once

#include <cstdint>

#include <z3++.h>

namespace niov::smt {

struct Sym {
	using u64 = z3::expr;
	using u32 = z3::expr;
	using boolean = z3::expr;

	static z3::context &ctx() { return *current; }

	static u64 k64(uint64_t v) { return ctx().bv_val(v, 64); }
	static u32 k32(uint32_t v) { return ctx().bv_val(static_cast<uint64_t>(v), 32); }
	static boolean kb(bool v) { return ctx().bool_val(v); }

	// SMT-LIB bvshl/bvlshr give 0 for a shift >= the width, as word.hpp asks.
	static z3::expr shl(const z3::expr &a, const z3::expr &s) { return z3::shl(a, s); }
	static z3::expr lshr(const z3::expr &a, const z3::expr &s) { return z3::lshr(a, s); }

	static boolean ult(const z3::expr &a, const z3::expr &b) { return z3::ult(a, b); }
	static boolean ule(const z3::expr &a, const z3::expr &b) { return z3::ule(a, b); }
	static boolean ugt(const z3::expr &a, const z3::expr &b) { return z3::ugt(a, b); }
	static boolean uge(const z3::expr &a, const z3::expr &b) { return z3::uge(a, b); }
	static boolean slt32(const z3::expr &a, const z3::expr &b) { return z3::slt(a, b); }
	static boolean sge32(const z3::expr &a, const z3::expr &b) { return z3::sge(a, b); }

	static u64 zext(const z3::expr &v) { return z3::zext(v, 32); }
	static u32 trunc(const z3::expr &v) { return v.extract(31, 0); }

	static z3::expr select(const z3::expr &c, const z3::expr &a, const z3::expr &b) {
		return z3::ite(c, a, b);
	}

	// Count trailing zeros with masks only: isolate the lowest set bit, then
	// read its index bit by bit (bit k of the index is set iff the isolated
	// bit lies in a position with bit k set).  64 for 0, as std::countr_zero.
	static u64 ctz64(const z3::expr &v) {
		static constexpr uint64_t kIndexBit[6] = {
			0xaaaaaaaaaaaaaaaaull, 0xccccccccccccccccull, 0xf0f0f0f0f0f0f0f0ull,
			0xff00ff00ff00ff00ull, 0xffff0000ffff0000ull, 0xffffffff00000000ull,
		};
		const z3::expr low = v & (~v + k64(1));
		z3::expr idx = k64(0);
		for (unsigned k = 0; k < 6; ++k)
			idx = idx | z3::ite((low & k64(kIndexBit[k])) != k64(0), k64(uint64_t{1} << k), k64(0));
		return z3::ite(v == k64(0), k64(64), idx);
	}

	static boolean is_pow2(const z3::expr &v) {
		const z3::expr zero = ctx().bv_val(0, v.get_sort().bv_size());
		const z3::expr one = ctx().bv_val(1, v.get_sort().bv_size());
		return v != zero && (v & (v - one)) == zero;
	}

	// Symbolic code runs bounded loops to the end unless the condition is
	// literally true (no simplification: it would cost more than the
	// iterations it saves).
	static bool certainly(const z3::expr &b) { return b.is_true(); }

	static inline thread_local z3::context *current = nullptr;
};

// Makes @c the context Sym builds terms in, for this thread, until it ends.
class SymScope {
public:
	explicit SymScope(z3::context &c) : prev_(Sym::current) { Sym::current = &c; }
	~SymScope() { Sym::current = prev_; }
	SymScope(const SymScope &) = delete;
	SymScope &operator=(const SymScope &) = delete;

private:
	z3::context *prev_;
};

}  // namespace niov::smt
