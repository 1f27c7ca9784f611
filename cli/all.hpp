// `niovcheck all`: every engine on one plugin (or kernel tree), one verdict.
//
// The engines (replay of the shipped scenarios whose rules match, the
// properties, a fuzz smoke of every target, the proofs of the rules in
// force, the fault sweep) each run in a child process, so a plugin that
// crashes, hangs or exits takes down one engine, not the verdict: that
// becomes a finding with the signal and what was running.  Every failing
// case an engine reports is replayed once more to name its root cause
// (all_findings.hpp); the findings are grouped by it, each with one replay
// command that was run again to check it reproduces.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "rules_in_force.hpp"
#include "worker.hpp"

namespace niov::cli {

enum class Budget { presubmit, nightly };

struct AllRequest {
	std::string impl;	 // the plugin (relative or absolute path)
	std::string kernel;	 // or a kernel tree, built with kernel_build()
	RulesRequest rules;
	Budget budget = Budget::presubmit;
	bool json = false;
	bool tap = false;
	bool summary = false;	 // plain text for a mail: <= 72 columns, no colours
	bool quiet = false;	 // no progress on stderr (all_progress.hpp)
	std::string junit;	 // write JUnit XML here ("" = no)
	uint64_t seed = 1;
	// Overrides of the budget (0 = the budget's value).
	uint64_t cases = 0;		// per property
	unsigned fuzz_seconds = 0;	// per target
	unsigned proof_timeout_ms = 0;	// per query
	unsigned jobs = 0;		// fuzz targets at once (0 = the machine's cores)
	std::vector<std::string> engines;  // a subset ("" = all)
	bool build_fuzz = true;	 // build the libFuzzer targets when none are found
	bool proof_cache = true; // take a passing proof result kept for the same rules (proof_cache.hpp)
	bool asan = false;	 // --kernel: every engine on the tree's ASan + UBSan build
	std::string source_dir;	 // the repository (corpora/, the fuzz preset)
	std::string bin_dir;	 // this build's bin/ (the replay commands name its niovcheck)
	std::string fuzz_bin_dir;  // libFuzzer targets; "" = <source>/build-fuzz/bin
	std::string work_dir;	 // failing cases and logs; "" = ./niovcheck-failures/all-<plugin>
	worker::Limits limits;	 // op_seconds: a plugin call that does not return is a hang
};

// Runs and prints the verdict to @out (text, JSON or TAP).  Returns the exit
// code: 0 clean, 1 a finding, 2 bad input, 128 + the signal when SIGINT,
// SIGTERM or SIGHUP stopped the run (the report says what finished).
// Throws UsageError, RulesError, PluginError for bad input found before
// anything runs.
int run_all(const AllRequest &req, std::FILE *out);

}  // namespace niov::cli
