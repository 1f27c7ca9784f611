// From what the engines saw to findings grouped by root cause.
//
// Every observation with a failing case is replayed once more (in a child:
// the plugin may crash) and named by its first event, in this order:
//  1. the first model-vs-plugin difference: "difference <answer> at <op>":
//     of the earliest step that differs, the most upstream answer (the bind
//     before the lookups before the frags before the accounting), named by
//     the decision it comes from (bind, rx queue, lookup, frags, truesize:
//     one slip shows as a frag length in one case and as a frag count in
//     the next) and the kind of step (bind, send, ack, split, shift, free).
//     A plugin that differs from the model is the root; the invariants its
//     answers then violate are consequences, listed with the finding.
//  2. else the first violation the scenario does not expect and no known
//     finding explains: "<plugin|rules> violate <invariant> at <op>" (the
//     rules themselves when the model violates it: a declared rule change
//     that is unsound).
//  3. else what the engine said: a crash or hang (with its signal), an
//     expectation that did not hold, a proof without a scenario.
// One property that fails 18 invariants on one slip is therefore one
// finding that lists the 18 properties.
#pragma once

#include <vector>

#include "all_types.hpp"
#include "engines/engine.hpp"

namespace niov::cli {

std::vector<Finding> group_findings(const EngineInput &ctx, const std::vector<EngineResult> &engines);

// Runs each finding's replay command again (in a shell, output discarded)
// and records whether it fails as it should: exit 1, or the same death for
// a crash.
void check_replays(const EngineInput &ctx, std::vector<Finding> &findings);

}  // namespace niov::cli
