#include "pin.hpp"

#include <cstdlib>
#include <stdexcept>

namespace niov::fuzz {

Preset rules_for_plugin(const std::string &plugin_name) {
	if (const char *r = std::getenv("NIOV_FUZZ_RULES"); r && *r) {
		if (auto p = parse_preset(r))
			return *p;
		throw std::invalid_argument("NIOV_FUZZ_RULES='" + std::string(r) + "' is not a preset");
	}
	return parse_preset(plugin_name).value_or(Preset::tx_autosize);
}

void pin_rules(Scenario &sc, Preset p) {
	sc.cfg.preset = p;
	sc.cfg.policy = preset_policies(p);
}

}  // namespace niov::fuzz
