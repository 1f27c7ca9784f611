// Proof results kept by what they prove.  The proofs of a verdict depend
// on the rules and policies in force, the lemma catalogue and the model's
// rule sources (smt/fingerprint.hpp), the per-query timeout and the solver,
// never on the plugin: a verdict whose proofs did not change takes the last
// passing result instead of proving the same lemmas again.  Only passing
// results are kept (a failure is re-proved, so its counterexamples are
// written for the run that reports them).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace niov::cli {

struct ProofKey {
	std::string fingerprint;  // "" when the sources are not at hand: no caching
	std::string hash;	  // of everything the result depends on
};

// @rules: the label of the rules in force; @lemmas: the families proved.
ProofKey proof_key(const std::string &source_dir, const std::string &rules, const std::vector<std::string> &lemmas,
		   unsigned timeout_ms);

// $NIOV_PROOF_CACHE, else $XDG_CACHE_HOME/niovcheck/proofs, else
// ~/.cache/niovcheck/proofs.
std::string proof_cache_dir();

// The kept report for @key, if any.
std::optional<std::string> proof_cache_read(const ProofKey &key);
// Keep @report (written whole or not at all); false when it could not be.
bool proof_cache_write(const ProofKey &key, const std::string &report);

}  // namespace niov::cli
