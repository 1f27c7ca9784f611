#include "rules_in_force.hpp"

#include <fmt/format.h>

#include "plugin.hpp"

namespace niov {

namespace {

std::string join(const std::vector<std::string> &v, std::string_view sep, std::string_view last_sep) {
	std::string out;
	for (size_t i = 0; i < v.size(); ++i) {
		if (i)
			out += i + 1 == v.size() ? last_sep : sep;
		out += v[i];
	}
	return out;
}

std::vector<std::string> split_policies(const std::string &s) {
	std::vector<std::string> out;
	std::string cur;
	for (char c : s) {
		if (c == ' ' || c == ',' || c == '\t') {
			if (!cur.empty())
				out.push_back(std::move(cur));
			cur.clear();
		} else {
			cur += c;
		}
	}
	if (!cur.empty())
		out.push_back(std::move(cur));
	return out;
}

// One "key=value": applied, or a message naming what is valid.
void apply_one(Policies &p, const std::string &kv, const std::string &policy_name) {
	const size_t eq = kv.find('=');
	if (eq == std::string::npos || eq == 0)
		throw RulesError(fmt::format("{} '{}': want KEY=VALUE", policy_name, kv));
	const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
	std::vector<std::string> keys;
	for (const auto &k : policy_keys()) {
		keys.emplace_back(k.key);
		if (k.key != key)
			continue;
		if (!apply_policy(p, key, value))
			throw RulesError(fmt::format("{} '{}': {} is one of {}", policy_name, kv, key,
						     join(k.values, ", ", " or ")));
		return;
	}
	throw RulesError(fmt::format("{} '{}': no policy '{}' (policies: {})", policy_name, kv, key,
				     join(keys, ", ", " and ")));
}

Preset parse_or_throw(const std::string &rules, const std::string &what) {
	if (auto p = parse_preset(rules))
		return *p;
	throw RulesError(fmt::format("{} '{}': want {}", what, rules, preset_list()));
}

}  // namespace

void apply_policy_request(Policies &base, const std::vector<std::string> &policies,
			  const std::string &policy_name) {
	for (const auto &entry : policies)
		for (const auto &kv : split_policies(entry))
			apply_one(base, kv, policy_name);
}

std::string RulesInForce::overrides() const { return policy_overrides(policies, preset_policies(preset)); }

std::string RulesInForce::label() const {
	const std::string o = overrides();
	return o.empty() ? std::string(name(preset)) : fmt::format("{} + {}", name(preset), o);
}

std::string RulesInForce::flags() const {
	std::string s = fmt::format("--rules {}", name(preset));
	for (const auto &kv : split_policies(overrides()))
		s += " --policy " + kv;
	return s;
}

std::string RulesInForce::env() const {
	const std::string o = overrides();
	return fmt::format("NIOV_RULES={}{}", name(preset), o.empty() ? "" : fmt::format(" NIOV_POLICY='{}'", o));
}

bool RulesInForce::matches(const Scenario &sc) const { return sc.cfg.policy == policies; }

void RulesInForce::pin(Scenario &sc) const {
	sc.cfg.preset = preset;
	sc.cfg.policy = policies;
	sc.cfg.rules_declared = true;
}

RulesInForce resolve_rules(const RulesRequest &req, const PluginImpl *plugin) {
	RulesInForce r;
	std::string rules_from, policy_from;
	const bool variant = plugin && !plugin->must_catch().empty();
	if (!req.rules.empty()) {
		r.preset = parse_or_throw(req.rules, req.rules_name);
		r.policies = preset_policies(r.preset);
		rules_from = req.rules_name;
	} else if (plugin && !plugin->rules().empty()) {
		r.preset = parse_or_throw(plugin->rules(),
					  fmt::format("plugin {} declares rules (ops->rules)", plugin->name()));
		r.policies = preset_policies(r.preset);
		rules_from = fmt::format("declared by plugin {}", plugin->name());
		if (!variant && !plugin->policy().empty()) {
			apply_policy_request(r.policies, {plugin->policy()},
					     fmt::format("plugin {} declares policy (ops->policy)", plugin->name()));
			policy_from = rules_from;
		}
	} else if (plugin) {
		throw RulesError(fmt::format("plugin {} declares no rules (ops->rules): pass {} {}", plugin->name(),
					     req.rules_name, preset_list()));
	} else {
		throw RulesError(fmt::format("no rules given: pass {} {}", req.rules_name, preset_list()));
	}
	if (!req.policies.empty()) {
		apply_policy_request(r.policies, req.policies, req.policy_name);
		policy_from = policy_from.empty() ? req.policy_name : policy_from + " and " + req.policy_name;
	}
	r.from = policy_from.empty() || policy_from == rules_from
			 ? rules_from
			 : fmt::format("rules {}, policies {}", rules_from, policy_from);
	return r;
}

}  // namespace niov
