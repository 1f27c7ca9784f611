#include "pin.hpp"

#include <cstdlib>

namespace niov::fuzz {

RulesInForce rules_from_env(const PluginImpl &plugin) {
	RulesRequest req;
	req.rules_name = "$NIOV_RULES";
	req.policy_name = "$NIOV_POLICY";
	if (const char *r = std::getenv("NIOV_RULES"); r && *r)
		req.rules = r;
	if (const char *p = std::getenv("NIOV_POLICY"); p && *p)
		req.policies.emplace_back(p);
	return resolve_rules(req, &plugin);
}

}  // namespace niov::fuzz
