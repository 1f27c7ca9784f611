// --rules PRESET and --policy KEY=VALUE (repeatable), as every command that
// runs a plugin takes them, and the header that names the rules in force.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "args.hpp"
#include "rules_in_force.hpp"

namespace niov::cli {

RulesRequest rules_request(Args &args);

// "rules tx-autosize + tx_niov_max=1M (--rules, --policy)".
std::string rules_text(const RulesInForce &r);
// {"preset", "overrides", "policies": {key: value}, "from"}.
nlohmann::json rules_json(const RulesInForce &r);

}  // namespace niov::cli
