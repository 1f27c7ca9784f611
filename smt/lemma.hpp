// A lemma: a claim about the rules, written once as a template over the word
// backend and instantiated twice.  With Sym its inputs are fresh bit-vector
// constants and Z3 looks for a model of `pre && !goal` (unsat = proved); with
// Concrete the same body is evaluated on values, which confirms every Z3
// counterexample, runs the exhaustive enumeration on a reduced domain, and
// turns a counterexample into a scenario file.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "invariants.hpp"
#include "scenario.hpp"
#include "sym_word.hpp"
#include "word.hpp"

namespace niov::smt {

// The values a variable takes when a lemma is enumerated with concrete words
// (prove --enumerate): a reduced domain standing in for the 64-bit one.
// Either first + i * step for i < count, or a short explicit list; plain
// data, so building one in a lemma body costs nothing per evaluation.
struct Dom {
	uint64_t first = 0, step = 1, count = 0;
	std::array<uint64_t, 16> items{};
	uint8_t nitems = 0;

	uint64_t size() const { return nitems ? nitems : count; }
	uint64_t at(uint64_t i) const { return nitems ? items[i] : first + i * step; }

	static Dom upto(uint64_t n) { return steps(0, 1, n); }		 // 0 .. n-1
	static Dom range(uint64_t lo, uint64_t hi) { return steps(lo, 1, hi - lo + 1); }
	static Dom steps(uint64_t first, uint64_t step, uint64_t n) {
		Dom d;
		d.first = first;
		d.step = step;
		d.count = n;
		return d;
	}
	static Dom list(std::initializer_list<uint64_t> v);  // at most 16 values
};

enum class VarKind : uint8_t { u64, u32, flag };

struct VarInfo {
	std::string name;
	VarKind kind;
	Dom dom;
};

// A lemma's free inputs.  Each call names one input; the same body asks for
// the same names in the same order on both backends.
template <class W>
class In;

template <>
class In<Sym> {
public:
	explicit In(z3::context &c) : c_(c) {}
	z3::expr u64(std::string_view name, Dom dom = {}) { return add(name, VarKind::u64, dom); }
	z3::expr u32(std::string_view name, Dom dom = {}) { return add(name, VarKind::u32, dom); }
	z3::expr flag(std::string_view name, Dom dom = {}) { return add(name, VarKind::flag, dom); }
	const std::vector<VarInfo> &vars() const { return vars_; }
	const std::vector<z3::expr> &consts() const { return consts_; }

private:
	z3::expr add(std::string_view name, VarKind k, const Dom &dom);
	z3::context &c_;
	std::vector<VarInfo> vars_;
	std::vector<z3::expr> consts_;
};

template <>
class In<Concrete> {
public:
	// The value of input number @index, named @name.
	using Source = std::function<uint64_t(size_t index, std::string_view name, VarKind, const Dom &)>;
	// @record: keep the inputs' VarInfo (vars()); off when enumerating.
	explicit In(Source s, bool record = true) : src_(std::move(s)), record_(record) {}
	uint64_t u64(std::string_view name, Dom dom = {}) { return get(name, VarKind::u64, dom); }
	uint32_t u32(std::string_view name, Dom dom = {}) {
		return static_cast<uint32_t>(get(name, VarKind::u32, dom));
	}
	bool flag(std::string_view name, Dom dom = {}) { return get(name, VarKind::flag, dom) != 0; }
	const std::vector<VarInfo> &vars() const { return vars_; }

private:
	uint64_t get(std::string_view name, VarKind k, const Dom &dom) {
		if (record_)
			vars_.push_back({std::string(name), k, dom});
		uint64_t v = src_(n_++, name, k, dom);
		if (k == VarKind::u32)
			v &= UINT32_MAX;
		else if (k == VarKind::flag)
			v = v != 0;
		return v;
	}
	Source src_;
	bool record_;
	size_t n_ = 0;
	std::vector<VarInfo> vars_;
};

// What a lemma claims: pre -> every goal.  The solver checks each goal (and
// each conjunct of one) as its own query: several small queries are much
// cheaper for a SAT solver than their conjunction.  A goal added with step()
// is also given to the goals after it (proved first, then used: the lemma
// still claims exactly pre -> all goals).
template <class W>
struct Claim {
	struct Goal {
		typename W::boolean goal;
		typename W::boolean given;  // the step() goals before it
		const char *tactic;	    // Z3 tactic for this goal (see Lemma::tactic)
	};
	typename W::boolean pre = W::kb(true);
	std::vector<Goal> goals;
	typename W::boolean given = W::kb(true);

	void assume(const typename W::boolean &b) { pre = pre && b; }
	void prove(const typename W::boolean &b, const char *tactic = nullptr) {
		goals.push_back({b, given, tactic});
	}
	void step(const typename W::boolean &b, const char *tactic = nullptr) {
		prove(b, tactic);
		given = given && b;
	}
	typename W::boolean goal() const {
		auto g = W::kb(true);
		for (const auto &x : goals)
			g = g && x.goal;
		return g;
	}
};

// One configuration a lemma is checked at: the plain C++ parameters of the
// rules (policies, page size, device, ...).  Data-dependent values are the
// lemma's symbolic inputs.
struct Point {
	Policies pol;
	unsigned page_shift = 12;
	Device dev = Device::none;
	unsigned max_page_order = 10;
	unsigned nsegs = 0;	  // symbolic DMA segments
	// The binding's niov shift, enumerated (0: not a parameter of the lemma).
	// Enumerated rather than symbolic: with a constant shift every shift and
	// mask in the rules is wiring, and there are at most ten values.
	unsigned niov_shift = 0;
	bool zcrx_device = true;  // zcrx: the queue has a device
};

// The parts of a Point a lemma reads; points that agree on them share one
// result (the soundness matrix re-uses results across policy combinations).
enum Reads : uint32_t {
	kReadsPageShift = 1u << 0,
	kReadsDevice = 1u << 1,
	kReadsDevMax = 1u << 2,	 // only the device's default TX max frag
	kReadsMaxPageOrder = 1u << 3,
	kReadsSegs = 1u << 4,
	kReadsTxNiov = 1u << 5,
	kReadsLookup = 1u << 6,
	kReadsTruesize = 1u << 7,
	kReadsMaxFrag = 1u << 8,
	kReadsBind = 1u << 9,
	kReadsRxAttr = 1u << 10,
	kReadsZcrxDevice = 1u << 11,
	kReadsNiovShift = 1u << 12,
};

// Canonical text of what @reads selects of @p: the dedupe key and the label
// shown in reports and file names ("ps12 dev=bnxt tx_niov=auto").
std::string point_label(const Point &p, uint32_t reads);

struct Lemma {
	std::string id;	 // family.name
	std::string family;
	Inv inv;  // the invariant a counterexample violates
	std::string statement;
	std::string domain;	// its configuration domain, one line
	double expected_s = 0;	// Z3 time over the whole domain on the reference machine
	uint32_t reads = 0;
	// The configurations under policies @pol (empty: does not apply).
	std::vector<Point> (*points)(const Policies &pol) = nullptr;
	Claim<Sym> (*sym)(const Point &, In<Sym> &) = nullptr;
	Claim<Concrete> (*conc)(const Point &, In<Concrete> &) = nullptr;
	// A scenario showing a counterexample (nullptr: none, e.g. TCP steps).
	std::optional<Scenario> (*scenario)(const Point &, In<Concrete> &) = nullptr;
};

// Z3 tactic for goals that chain equalities or inequalities already proved
// (congruence closure in Z3's SMT core); the default, for everything else,
// is Z3's QF_BV strategy (simplify, bit-blast, SAT).
inline constexpr const char *kChain = "smt";

// Why @l says nothing about rules @pol ("" when it applies): a kernel
// without bind-tx and zcrx (paths=rx) has only the rx family to prove.
inline std::string not_applicable(const Lemma &l, const Policies &pol) {
	if (pol.paths == Paths::rx && l.family != "rx")
		return "no bind-tx and no zcrx in this era (paths=rx)";
	return {};
}

struct NotApplicable {
	const Lemma *lemma;
	std::string group;  // the preset
	std::string why;
};

// Lemmas run under a policy combination that is expected to be unsound.
struct UnsoundCheck {
	std::string id;
	std::string lemma;	     // the lemma that must come out sat
	std::string policies;	     // overrides of the tx-autosize preset
	Point point;		     // page shift and device (policies filled in)
	std::string statement;
};

}  // namespace niov::smt
