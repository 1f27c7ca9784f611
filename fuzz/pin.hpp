// Which rules a fuzz run checks a plugin against.  Against a plugin any
// other preset or a policy override is a difference by construction, so the
// fuzz targets and `niovcheck corpus decode --impl` pin every scenario to
// the rules in force.
#pragma once

#include "rules_in_force.hpp"

namespace niov::fuzz {

// $NIOV_RULES and $NIOV_POLICY (space-separated key=value), else what the
// plugin declares (ops->rules, ops->policy).  Throws RulesError when neither
// names the rules or a value is not valid; the message lists the valid ones.
RulesInForce rules_from_env(const PluginImpl &plugin);

}  // namespace niov::fuzz
