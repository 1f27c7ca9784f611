#include "solve.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace niov::smt {

namespace {

using Clock = std::chrono::steady_clock;

void flatten_and(const z3::expr &e, std::vector<z3::expr> &out) {
	if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
		for (unsigned i = 0; i < e.num_args(); ++i)
			flatten_and(e.arg(i), out);
		return;
	}
	if (!e.is_true())
		out.push_back(e);
}

std::string to_smt2(z3::solver &s) {
	// Z3 writes declarations, assertions and (check-sat); cvc5 wants a logic.
	return "(set-logic QF_BV)\n" + s.to_smt2();
}

z3::expr var_const(z3::context &c, const VarInfo &v) {
	switch (v.kind) {
	case VarKind::u64:
		return c.bv_const(v.name.c_str(), 64);
	case VarKind::u32:
		return c.bv_const(v.name.c_str(), 32);
	case VarKind::flag:
		break;
	}
	return c.bool_const(v.name.c_str());
}

uint64_t value_of(const z3::model &m, const z3::expr &c) {
	const z3::expr v = m.eval(c, true);
	if (v.is_bool())
		return v.is_true() ? 1 : 0;
	uint64_t out = 0;
	if (!v.is_numeral_u64(out))
		throw std::runtime_error("non-numeral model value for " + c.to_string());
	return out;
}

// Bound every 64-bit input: counterexamples with small values make readable,
// cheap scenarios.  Tried tightest first; the unbounded model stays the
// fallback.
bool shrink(z3::solver &s, const std::vector<VarInfo> &vars, unsigned bits) {
	s.push();
	for (const auto &v : vars)
		if (v.kind == VarKind::u64)
			s.add(z3::ule(var_const(s.ctx(), v), s.ctx().bv_val(uint64_t{1} << bits, 64)));
	const bool ok = s.check() == z3::sat;
	if (!ok)
		s.pop();
	return ok;
}

}  // namespace

double thread_cpu_seconds() {
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string_view name(Verdict v) {
	switch (v) {
	case Verdict::proved:
		return "proved";
	case Verdict::counterexample:
		return "counterexample";
	case Verdict::unknown:
		break;
	}
	return "unknown";
}

uint64_t Assignment::get(const std::string &n) const {
	for (size_t i = 0; i < vars.size(); ++i)
		if (vars[i].name == n)
			return values[i];
	return 0;
}

std::string Assignment::to_string() const {
	std::string s;
	for (size_t i = 0; i < vars.size(); ++i) {
		if (i)
			s += ' ';
		s += vars[i].kind == VarKind::flag ? fmt::format("{}={}", vars[i].name, values[i] ? "true" : "false")
						   : fmt::format("{}={:#x}", vars[i].name, values[i]);
	}
	return s;
}

In<Concrete>::Source Assignment::source() const {
	return [this](size_t, std::string_view n, VarKind, const Dom &) { return get(std::string(n)); };
}

bool concrete_counterexample(const Lemma &lemma, const Point &point, const Assignment &a) {
	In<Concrete> in(a.source());
	const Claim<Concrete> c = lemma.conc(point, in);
	return c.pre && !c.goal();
}

Query build_query(const Lemma &lemma, const Point &point) {
	z3::context ctx;
	SymScope scope(ctx);
	In<Sym> in(ctx);
	const Claim<Sym> c = lemma.sym(point, in);
	Query q;
	q.vars = in.vars();
	for (const auto &g : c.goals) {
		std::vector<z3::expr> parts;
		flatten_and(g.goal, parts);
		for (const auto &part : parts) {
			z3::solver s(ctx, "QF_BV");
			s.add(c.pre);
			s.add(g.given);
			s.add(!part);
			q.goals.push_back(to_smt2(s));
			q.tactics.push_back(g.tactic);
		}
	}
	return q;
}

Outcome solve_query(const Lemma &lemma, const Point &point, const Query &q, const SolveOptions &opts) {
	Outcome out;
	out.verdict = Verdict::proved;
	try {
		for (size_t i = 0; i < q.goals.size(); ++i) {
			if (!opts.smt2_prefix.empty()) {
				const std::string path = fmt::format("{}.g{}.smt2", opts.smt2_prefix, i);
				std::ofstream f(path);
				f << q.goals[i];
				if (!f)
					throw std::runtime_error("cannot write " + path);
				out.smt2_files.push_back(path);
			}
			z3::context ctx;
			const z3::expr_vector fmls = ctx.parse_string(q.goals[i].c_str());
			const char *tactic = q.tactics[i];
			z3::solver s = tactic ? z3::try_for(z3::tactic(ctx, tactic), opts.timeout_ms).mk_solver()
					      : z3::solver(ctx, "QF_BV");
			z3::params p(ctx);
			p.set("timeout", opts.timeout_ms);
			s.set(p);
			for (unsigned k = 0; k < fmls.size(); ++k)
				s.add(fmls[k]);
			const auto t0 = Clock::now();
			const double c0 = thread_cpu_seconds();
			const z3::check_result r = s.check();
			const double cpu = thread_cpu_seconds() - c0;
			out.cpu_seconds += cpu;
			out.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
			out.goal_cpu_seconds.push_back(cpu);
			if (r == z3::unsat)
				continue;
			out.failed_goal = i;
			if (r == z3::unknown) {
				out.verdict = Verdict::unknown;
				out.reason = s.reason_unknown();
				return out;
			}
			out.verdict = Verdict::counterexample;
			z3::model m = s.get_model();
			if (opts.small_model && (shrink(s, q.vars, 24) || shrink(s, q.vars, 36)))
				m = s.get_model();
			out.model.vars = q.vars;
			for (const auto &v : q.vars)
				out.model.values.push_back(value_of(m, var_const(ctx, v)));
			out.confirmed = concrete_counterexample(lemma, point, out.model);
			return out;
		}
	} catch (const z3::exception &e) {
		out.verdict = Verdict::unknown;
		out.reason = std::string("z3: ") + e.msg();
	}
	return out;
}

Outcome solve(const Lemma &lemma, const Point &point, const SolveOptions &opts) {
	Query q;
	try {
		q = build_query(lemma, point);
	} catch (const z3::exception &e) {
		Outcome out;
		out.reason = std::string("z3: ") + e.msg();
		return out;
	}
	return solve_query(lemma, point, q, opts);
}

}  // namespace niov::smt
