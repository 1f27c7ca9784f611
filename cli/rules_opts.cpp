#include "rules_opts.hpp"

#include <sstream>

#include <fmt/format.h>

namespace niov::cli {

RulesRequest rules_request(Args &args) {
	RulesRequest req;
	req.rules = args.option("rules", "");
	req.policies = args.options("policy");
	return req;
}

std::string rules_text(const RulesInForce &r) { return fmt::format("rules {} ({})", r.label(), r.from); }

nlohmann::json rules_json(const RulesInForce &r) {
	auto all = nlohmann::json::object();
	std::istringstream in(policies_string(r.policies));
	for (std::string kv; in >> kv;) {
		const size_t eq = kv.find('=');
		all[kv.substr(0, eq)] = kv.substr(eq + 1);
	}
	auto over = nlohmann::json::array();
	std::istringstream o(r.overrides());
	for (std::string kv; o >> kv;)
		over.push_back(kv);
	return {{"preset", std::string(name(r.preset))}, {"overrides", over}, {"policies", all}, {"from", r.from}};
}

}  // namespace niov::cli
