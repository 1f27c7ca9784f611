// The libFuzzer targets, driven from one place: the command line (flags,
// corpus, dictionary, artifacts, the plugin and the rules in the
// environment, time limits), running several side by side, and reading
// back what a run left (its log, its stats, the harness's failure line,
// its artifacts).  The fuzz engine (`all`, `mutants`) and the nightly
// campaign over every plugin (`niovcheck fuzz-campaign`) both build their
// runs here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "all_types.hpp"
#include "decode.hpp"
#include "rules_in_force.hpp"

namespace niov::cli {

// The targets, in the order the reports list them.
inline constexpr fuzz::Target kFuzzTargets[] = {fuzz::Target::send, fuzz::Target::bind, fuzz::Target::config,
						fuzz::Target::scenario};

// One run of one target against one plugin.
struct FuzzJob {
	fuzz::Target target = fuzz::Target::send;
	std::string bin_dir;	 // where <target>_fuzzer<suffix> is
	std::string suffix;	 // "" (ASan + UBSan) or "_nosan"
	std::string plugin;	 // $NIOV_IMPL
	// $NIOV_RULES / $NIOV_POLICY (rules_in_force.hpp's env()); null: the
	// rules the plugin declares.
	const RulesInForce *rules = nullptr;
	std::string source_dir;	 // corpora/<target>/ (the seeds) and corpora/<target>.dict
	std::string dir;	 // corpus/ (a fresh copy of the seeds), log
	std::string artifacts;	 // libFuzzer's -artifact_prefix folder ("" = @dir)
	unsigned seconds = 0;	 // -max_total_time
	uint64_t seed = 0;	 // -seed (0: not given)
	unsigned unit_timeout = 10;  // -timeout
	unsigned rss_limit_mb = 0;   // -rss_limit_mb (0: libFuzzer's default)
	// False: no LeakSanitizer, per input or at exit; leaks are then the
	// harness's plugin.leak and the traces' res.no_leak, which know the
	// kernel's own.  Always without an LD_PRELOADed runtime of ours.
	bool leak_sanitizer = true;
	std::string failure_dir;  // $NIOV_FAILURE_DIR ("" = not set)
	std::string cli;	  // $NIOV_CLI, for the harness's replay lines ("" = not set)
	unsigned wall_limit = 0;  // timeout(1) around the run (0: none)

	std::string binary() const;
	std::string log() const;
	std::string artifact_dir() const;
};

// The shell line that runs @j, its output to j.log().
std::string fuzz_command(const FuzzJob &j);
// The line that runs one input of @j's target once more (-runs=1), output
// to @log ("" = not redirected).
std::string fuzz_replay_command(const FuzzJob &j, const std::string &input, const std::string &log = "");

// Makes each job's folder afresh (the corpus a copy of the shipped seeds: the
// shipped corpus is never written to), then runs the jobs, at most
// @at_once side by side.  Their wait statuses, in order (-1: did not start).
std::vector<int> run_fuzz_jobs(const std::vector<FuzzJob> &jobs, unsigned at_once);
// Shell commands, at most @at_once at a time; their wait statuses in order.
std::vector<int> run_side_by_side(const std::vector<std::string> &cmds, unsigned at_once);

// What a run left in its log.
struct FuzzLog {
	std::string text;
	std::string execs;  // stat::number_of_executed_units ("" = none)
	std::string rate;   // stat::average_exec_per_sec
	bool finished = false;  // libFuzzer's "Done N runs" and final stats: the budget ran out
};
FuzzLog read_fuzz_log(const FuzzJob &j);

// The harness's failure line, "niovcheck-fuzz <t>: <inv> (...): detail |
// replay: CMD", as an observation (invariant "differential" named
// "difference").  False when the log has none.
bool harness_failure(const std::string &log, const std::string &target, Observation &o);
// The first artifact of @prefixes in @dir ("crash-", ...); @kind is its
// prefix without the dash.  "" when none.
std::string find_artifact(const std::string &dir, std::string &kind,
			  const std::vector<std::string> &prefixes = {"crash-", "timeout-", "oom-", "leak-"});

// The folder of the libFuzzer targets for @req, and whether all four are there.
std::string fuzz_bin_dir(const AllRequest &req);
bool fuzz_targets_built(const std::string &dir, const std::string &suffix = "");

}  // namespace niov::cli
