// One lemma at one configuration through Z3: unsat of `pre && !goal` is a
// proof; a model is a counterexample, re-checked with the concrete
// instantiation of the same lemma.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lemma.hpp"

namespace niov::smt {

enum class Verdict : uint8_t { proved, counterexample, unknown };
std::string_view name(Verdict v);

// Input values by name, in the order the lemma asked for them.
struct Assignment {
	std::vector<VarInfo> vars;
	std::vector<uint64_t> values;
	uint64_t get(const std::string &name) const;  // 0 when absent
	std::string to_string() const;		      // "name=value ..."
	// A Source handing these values to a concrete instantiation (by name).
	In<Concrete>::Source source() const;
};

struct SolveOptions {
	unsigned timeout_ms = 20000;
	// Write each goal's query as SMT-LIB2 to <prefix>.g<i>.smt2 when set.
	std::string smt2_prefix;
	bool small_model = true;  // prefer counterexamples with small values
};

struct Outcome {
	Verdict verdict = Verdict::unknown;
	double seconds = 0;	 // Z3's check() of every goal's query, wall clock
	double cpu_seconds = 0;	 // the same in this thread's CPU time (robust to a loaded machine)
	std::vector<double> goal_cpu_seconds;
	size_t failed_goal = 0;	 // the goal that was not proved
	std::vector<std::string> smt2_files;
	std::string reason;	 // why unknown (e.g. "timeout"); solver errors too
	Assignment model;	 // the counterexample
	bool confirmed = false;	 // the Concrete instantiation agrees: pre && !goal
};

// A lemma at a point as SMT-LIB2 text, one query per goal: `pre && given &&
// !goal`.  Z3 solves exactly this text (parsed into a fresh context), which
// is also what --smt2-dir exports and cvc5/Boolector re-check, and what
// identical queries are recognised by.
struct Query {
	std::vector<VarInfo> vars;
	std::vector<std::string> goals;
	std::vector<const char *> tactics;  // per goal; nullptr: QF_BV
};
Query build_query(const Lemma &lemma, const Point &point);

Outcome solve_query(const Lemma &lemma, const Point &point, const Query &q, const SolveOptions &opts);
Outcome solve(const Lemma &lemma, const Point &point, const SolveOptions &opts);

// This thread's CPU time in seconds.
double thread_cpu_seconds();


// Evaluate the lemma with concrete words on @a: true when pre holds and goal
// fails, i.e. @a is a counterexample of the tested code.
bool concrete_counterexample(const Lemma &lemma, const Point &point, const Assignment &a);

}  // namespace niov::smt
