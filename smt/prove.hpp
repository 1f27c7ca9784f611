// `niovcheck prove`: the lemma catalogue under the chosen rules, the unsound
// checks, the soundness matrix and the enumeration comparison.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.hpp"

namespace niov::smt {

// Bad input (unknown lemma, preset, ...): the CLI prints it, exit 2.
struct ProveUsageError : std::invalid_argument {
	using std::invalid_argument::invalid_argument;
};

struct ProveOptions {
	std::vector<std::string> lemmas;  // ids, families or unsound check ids; empty = all
	std::vector<Preset> presets{Preset::tx_autosize};
	// --policy on top of the one preset: the rules in force of a rule change
	// ("key=value ..."); empty = the presets as they are.
	std::string policy_overrides;
	bool json = false;
	bool matrix = false;
	bool enumerate = false;
	bool if_changed = false;
	unsigned timeout_ms = 20000;
	unsigned jobs = 2;
	std::string smt2_dir;
	std::string cex_dir;	  // default: <build>/prove-cex
	std::string promote_dir;  // copy counterexamples here (corpora/regressions)
	std::string report_path;  // default: <build>/prove-report.json
	std::string source_dir;	  // for the fingerprint; default: the tree built from
	std::string self_exe;	  // this binary, for `corpus encode` when promoting
};

// Runs and prints; returns the exit code (0 all as expected, 1 otherwise).
// Throws ProveUsageError on bad input.
int run_prove(const ProveOptions &opts, std::FILE *out);

}  // namespace niov::smt
