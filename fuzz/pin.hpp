// Which rules a fuzz run checks a plugin against.  Against a plugin any
// other preset or a policy override is a difference by construction, so the
// fuzz targets and `niovcheck corpus decode --impl` pin the scenario to the
// plugin's rules.
#pragma once

#include <string>

#include "scenario.hpp"

namespace niov::fuzz {

// $NIOV_FUZZ_RULES, else the preset the plugin's name names (baseline,
// net-next), else tx-autosize (every broken variant is tx_autosize.c with
// one slip).  Throws std::invalid_argument for a bad $NIOV_FUZZ_RULES.
Preset rules_for_plugin(const std::string &plugin_name);

void pin_rules(Scenario &sc, Preset p);

}  // namespace niov::fuzz
