// Running one property outside RC_GTEST_PROP: our own case count and seed
// per property (Debian's RapidCheck has no per-test configuration), a quiet
// listener, and on failure the reproduce string, the shrunk case written as
// a scenario file and the `niovcheck replay` command that shows it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "case_record.hpp"
#include "property.hpp"

namespace niov::props {

inline constexpr uint64_t kDefaultSeed = 0x6e696f76;  // "niov"
inline constexpr uint64_t kPresubmitCases = 10000;

struct RunParams {
	uint64_t cases = kPresubmitCases;
	uint64_t seed = kDefaultSeed;
	int max_size = 100;
	std::string failure_dir;	      // empty: $NIOV_FAILURE_DIR or ./niovcheck-failures
	std::string niovcheck = "niovcheck";  // how the replay command names the CLI
	std::string tag;		      // added to failure file names (e.g. a variant)
	std::string rules_flags;	      // the rules in force, as replay flags ("--rules X --policy K=V")
};

// $NIOV_PROPS_CASES, $NIOV_PROPS_SEED, $NIOV_FAILURE_DIR, $NIOV_CLI over the
// defaults; false (with @error set) on a malformed value.
bool params_from_env(RunParams &rp, std::string &error);

struct Outcome {
	std::string name;
	bool passed = false;
	std::string not_run;  // why the property could not run: neither a pass nor a failure
	uint64_t cases = 0;  // cases run, the failing one included
	double seconds = 0;	 // wall clock
	double cpu_seconds = 0;	 // this thread's CPU time (the machine may be shared)
	std::string message;	    // RapidCheck's account of the failure
	std::string description;    // just what failed (the assertion's text)
	std::string reproduce;	    // the RC_PARAMS value that replays it
	std::string scenario_file;  // the shrunk case
	std::string replay;	    // one line: niovcheck replay FILE [--impl PATH]
	std::optional<FailedCase> failed;
	double rate() const { return seconds > 0 ? static_cast<double>(cases) / seconds : 0; }
	double cpu_rate() const { return cpu_seconds > 0 ? static_cast<double>(cases) / cpu_seconds : 0; }
};

Outcome run_property(const Property &p, const Target &t, const RunParams &rp);

// The property that must catch a broken variant whose catalogue entry says
// @must_catch (an invariant id, or "difference": diff.model_vs_impl).
std::string property_for(const std::string &must_catch);

// The property named @first (if any), then every other, in catalogue order.
std::vector<const Property *> properties_from(const std::string &first);

// @first, then every other property, until one fails against @t: the
// negative tests and the scoreboard's property engine.  @seconds gets the
// wall time of the properties run.  nullopt: every property passed.
std::optional<Outcome> first_failure(const Target &t, const std::string &first, const RunParams &rp,
				     double &seconds);

// Where a failing case of property @name is written (the folder is made).
std::string failure_path(const std::string &name, const RunParams &rp);

// What a failure prints: the message, reproduce string, file and command.
std::string failure_text(const Outcome &o);

// The seed a property runs with: the run's seed mixed with its name, so
// properties draw different cases and each stays reproducible alone.
uint64_t property_seed(uint64_t seed, std::string_view name);

}  // namespace niov::props
