// What `niovcheck all`'s engines hand back and what the verdict is built of.
// Plain data with JSON forms: an engine runs in a child process and returns
// its result to the parent as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "all.hpp"

namespace niov::cli {

// One failure an engine saw.
// An Observation whose invariant starts so is a known bug of the rules in
// force that the code showed (the rest: the invariant ids its scenario
// expects); its replay runs as the scenario expects, exit 0.
inline constexpr std::string_view kKnownBugPrefix = "known-bug ";

struct Observation {
	std::string engine;	// replay, props, fuzz, proof, faults
	std::string what;	// the scenario file, property, fuzz target or lemma
	std::string invariant;	// as the engine named it ("difference", an id, "crash", "hang", ...)
	std::string detail;	// the engine's one line about it
	std::string scenario;	// the failing case as a scenario file (absolute; "" = none)
	std::string replay;	// the engine's own replay command
	bool model_only = false;  // the case runs the model alone (proofs speak about the rules)
	int signal = 0;		// the engine's child died of this signal
};

enum class EngineStatus { ok, finding, not_run };

// One thing an engine ran (a scenario, a property, a fuzz target, a lemma
// family, a swept bind) and how it came out: the KTAP subtests.
struct EngineItem {
	std::string name;
	EngineStatus status = EngineStatus::ok;
	std::string note;  // why not run, or the first line of what failed
};

struct EngineResult {
	std::string name;
	EngineStatus status = EngineStatus::not_run;
	std::string note;	  // why not run, what was skipped, ...
	std::string runs;	  // what ran ("17 scenarios", "29 properties x 2000 cases")
	double seconds = 0;
	std::vector<Observation> observations;
	// Known findings the code showed: a shipped scenario whose expect lines
	// name the violations of the rules in force (6.12's truncation, say),
	// run as expected.  Real, reported, not counted in the verdict.
	std::vector<Observation> known;
	std::vector<EngineItem> items;  // what it ran, one by one (empty: the engine is one item)
};

// One root cause and everything that showed it.
struct Finding {
	std::string key;	// what groups them (all_findings.hpp)
	std::string title;	// one line for a person
	std::string model, impl;  // the first event's values, where it is a difference
	std::vector<std::string> violates;  // invariants the case also violates
	std::vector<Observation> seen_by;
	std::string scenario;	// the case the replay command runs
	std::string replay;
	bool known_bug = false;	  // an era's known bug: its replay exits 0 (the scenario expects it)
	bool replay_checked = false;	  // the command was run again ...
	bool replay_reproduces = false;	  // ... and failed as it should
	std::string replay_note;
};

nlohmann::json to_json(const Observation &o);
Observation observation_from(const nlohmann::json &j);
nlohmann::json to_json(const EngineResult &r);
EngineResult engine_from(const nlohmann::json &j);
std::string_view status_name(EngineStatus s);
EngineStatus status_from(const std::string &s);  // status_name's inverse

}  // namespace niov::cli
