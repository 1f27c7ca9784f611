// Promote counterexamples: copy each replayed counterexample scenario into a
// corpus folder (corpora/regressions/), one per lemma or unsound check, and
// when the fuzz corpora sit next to it, encode it there too
// (`niovcheck corpus encode`).
#pragma once

#include <string>
#include <vector>

#include "runner.hpp"

namespace niov::smt {

// Returns the files written.  @self_exe: niovcheck, for `corpus encode`.
std::vector<std::string> promote(const std::vector<JobResult> &results, const std::string &dir,
				 const std::string &self_exe);

}  // namespace niov::smt
