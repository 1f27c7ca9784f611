// The proof engine of the bug scoreboard: a broken variant that is a rule
// change (its policy overrides of tx-autosize) runs through the lemma
// catalogue, and the first confirmed counterexample is its catch.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace niov::smt {

// tx-autosize's policies with "key=value ..." overrides applied.  Throws
// ProveUsageError on an unknown key or value.
Policies tx_autosize_with(const std::string &overrides);
// The same on top of any preset.
Policies preset_with(Preset preset, const std::string &overrides);

struct PolicyHunt {
	bool found = false;	    // a counterexample the model's replay confirms
	std::string lemma;	    // the lemma it refutes
	std::string invariant;	    // that lemma's invariant id
	std::string scenario;	    // the counterexample as a scenario file
	std::vector<std::string> violations;  // what its replay reported
	double seconds = 0;	    // wall time to the catch (or of the whole run)
	unsigned queries = 0;	    // configurations tried
	std::string note;	    // e.g. a solver without a verdict
};

// The lemmas of @want's invariant first (the one that must catch it), then
// every other lemma; stops at the first family with a counterexample that is
// not a known finding.  Counterexample files go to @cex_dir.
PolicyHunt hunt_policy(const std::string &overrides, const std::string &want, const std::string &cex_dir,
		       unsigned timeout_ms);

}  // namespace niov::smt
