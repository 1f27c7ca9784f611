// One engine interface for every command that drives the engines.
//
// An engine takes a plugin, the rules in force, a budget and a work folder
// (an EngineInput) and answers one of two questions:
//  - run: everything it sees (`all`, and so `kernel check`, `kernel series`
//    and the nightly campaigns): the cases it ran, each failing case as an
//    Observation with its replay command, the items it ran one by one, and
//    why it did not run when it did not.  It says what it is at, and how
//    far it got, through a Progress.
//  - hunt: does it catch a broken variant's declared slip (`mutants`, the
//    scoreboard)?  It stops at the first catch.  An engine that has no
//    scoreboard column leaves it null.
// The commands are loops over registry() x plugins; none of them knows an
// engine by name.  Adding an engine is a file in this folder that defines
// `Engine NAME_engine()` and its line in registry.cpp's list.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "all.hpp"
#include "all_child.hpp"
#include "all_types.hpp"
#include "mutants.hpp"
#include "rules_in_force.hpp"
#include "worker.hpp"

namespace niov::cli {

// What an engine is given.  Built once per plugin by the command that loops;
// the rules are resolved once, here, and every engine, child and report
// header takes them from this object.
struct EngineInput {
	AllRequest req;		 // source_dir, seed, budget, proof cache, fuzz build
	std::string plugin;	 // absolute
	// What the libFuzzer targets load ("" = @plugin): a kernel tree's ASan
	// build made with clang-14, whose runtime the targets' is; gcc's is not.
	std::string fuzz_plugin;
	std::string plugin_name;
	std::string must_catch;	 // set: the plugin is a variant (the scoreboard row)
	RulesRequest request;	 // what gives those rules (the flags, or a kernel tree's)
	RulesInForce rules;
	// A kernel tree's: each rule choice read off its code, with the file:line.
	std::vector<std::string> rules_from_code;
	std::string niovcheck;	 // absolute path of the CLI for replay commands
	std::string work;	 // absolute folder for this run's files
	worker::Limits limits;	 // the per-call watchdog of the engines' children
	// What an engine's earlier child died on: the rerun skips it and goes on
	// (Progress markers: a scenario file, "property NAME").
	std::set<std::string> skip;
	// The budget.
	uint64_t cases = 0;	 // per property (0 in a hunt: the presubmit default)
	unsigned fuzz_seconds = 0;  // per target
	unsigned jobs = 1;	 // fuzz targets run side by side
	unsigned proof_timeout_ms = 0;
	// "NIOVCHECK replay FILE --impl PLUGIN --rules ..." (@model_only: no plugin).
	std::string replay_command(const std::string &file, bool model_only = false) const;
};

struct Engine {
	const char *name = "";
	EngineResult (*run)(const EngineInput &in, const Progress &p) = nullptr;
	// The scoreboard's question (null: no column in `mutants`).
	Catch (*hunt)(const EngineInput &in, const Variant &v) = nullptr;
	// Seconds `all` lets the engine's child run before it counts as hung
	// (null: 600).
	unsigned (*timeout)(const EngineInput &in) = nullptr;
	// Its child died while at @o.what (a Progress marker): the replay
	// command (and scenario) of that case, where it has one.
	void (*died_at)(const EngineInput &in, Observation &o) = nullptr;
	// Seconds the budget gives it, for a progress estimate (0: not known).
	double (*estimate)(const EngineInput &in) = nullptr;
	// False: it speaks about the rules, not the plugin's code (the proofs),
	// so a variant's row in `all` does not count it.
	bool judges_code = true;
	// It runs the libFuzzer targets: `all` finds or builds them first.
	bool needs_fuzz_targets = false;
};

// The engines, in the order `all` runs them and `mutants` prints them.
const std::vector<Engine> &registry();
// nullptr when there is none of that name.
const Engine *find_engine(std::string_view name);
// "replay, props, fuzz, proof, faults" (only those with a hunt: @scoreboard).
std::string engine_list(bool scoreboard = false);

}  // namespace niov::cli
