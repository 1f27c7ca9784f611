// Which rules a fuzz run checks a plugin against.  Against a plugin any
// other preset or a policy override is a difference by construction, so the
// fuzz targets and `niovcheck corpus decode --impl` pin the scenario to the
// plugin's rules.
#pragma once

#include <string>

#include "plugin.hpp"
#include "scenario.hpp"

namespace niov::fuzz {

// $NIOV_FUZZ_RULES, else the plugin's rules (plugin_rules: the preset it
// declares or names, else tx-autosize).  Throws std::invalid_argument for a
// bad $NIOV_FUZZ_RULES, PluginError for a declared name that is no preset.
Preset rules_for_plugin(const PluginImpl &plugin);

void pin_rules(Scenario &sc, Preset p);

}  // namespace niov::fuzz
