#include "pin.hpp"

#include <cstdlib>
#include <stdexcept>

namespace niov::fuzz {

Preset rules_for_plugin(const PluginImpl &plugin) {
	if (const char *r = std::getenv("NIOV_FUZZ_RULES"); r && *r) {
		if (auto p = parse_preset(r))
			return *p;
		throw std::invalid_argument("NIOV_FUZZ_RULES='" + std::string(r) + "' is not a preset");
	}
	return plugin_rules(plugin);
}

void pin_rules(Scenario &sc, Preset p) {
	sc.cfg.preset = p;
	sc.cfg.policy = preset_policies(p);
}

}  // namespace niov::fuzz
