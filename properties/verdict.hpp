// Turning a run into a pass or a failed case.  Properties on sound presets
// accept no violation except the known findings a scenario's own inputs
// explain (model/check/findings.hpp) and no model-vs-implementation difference.
#pragma once

#include <optional>
#include <string>

#include "invariants.hpp"
#include "report.hpp"

namespace niov::props {

std::optional<Inv> inv_from_id(std::string_view id);

// Is a violation of @inv explained by the scenario?  @own is the property's
// invariant: a policy override never excuses it (that is how the unsound
// combinations are hunted), only the scenario's exporter or device.
bool excused(const Scenario &sc, Inv inv, std::optional<Inv> own);

// RC_FAIL on the first unexcused violation or difference of @r.
void require_clean(const RunReport &r, const Scenario &sc, std::optional<Inv> own);
void require_clean(const Trace &t, const Scenario &sc, std::optional<Inv> own);
void require_no_differences(const std::vector<Difference> &d);

// Does the trace report @inv at all?
bool reports(const Trace &t, Inv inv);

}  // namespace niov::props
