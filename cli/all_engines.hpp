// The engines of `niovcheck all`, one function each.  Each runs inside the
// child process of all_child.hpp, says through @p what it is doing, and
// returns what it saw.
#pragma once

#include "all_child.hpp"
#include "all_types.hpp"

namespace niov::cli {

// The shipped scenarios and regressions whose rules are the rules in force.
EngineResult replay_for_all(const AllContext &ctx, const Progress &p);
// Every property with the budget's cases.
EngineResult props_for_all(const AllContext &ctx, const Progress &p);
// Each libFuzzer target from a copy of its seed corpus for the budget.
EngineResult fuzz_for_all(const AllContext &ctx, const Progress &p);
// The lemma catalogue under the rules in force.
EngineResult proof_for_all(const AllContext &ctx, const Progress &p);
// The fault-injection sweep (not here yet: says so).
EngineResult faults_for_all(const AllContext &ctx, const Progress &p);

// The folder of the libFuzzer targets and whether all four are there.
std::string fuzz_bin_dir(const AllRequest &req);
bool fuzz_targets_built(const std::string &dir);

}  // namespace niov::cli
