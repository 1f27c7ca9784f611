// The rules a run checks a plugin against, and where they came from.
//
// Precedence: what the user says (--rules / --policy, or $NIOV_RULES /
// $NIOV_POLICY for the fuzz targets), else what the plugin declares
// (ops->rules, ops->policy), else an error asking for --rules.  Never guessed
// from a plugin's name: a copy of net_next.c renamed "my-nn" is still judged
// by the rules it declares.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "config.hpp"
#include "scenario.hpp"

namespace niov {

class PluginImpl;

// Bad rules or policies: the message is one line and lists the valid values.
struct RulesError : std::invalid_argument {
	using std::invalid_argument::invalid_argument;
};

// What the user asked for.  Empty = not given.
struct RulesRequest {
	std::string rules;
	std::vector<std::string> policies;  // "key=value", several per entry allowed (space or comma)
	// How messages name the two knobs ("--rules" or "$NIOV_RULES").
	std::string rules_name = "--rules";
	std::string policy_name = "--policy";
	bool given() const { return !rules.empty() || !policies.empty(); }
};

struct RulesInForce {
	Preset preset = Preset::tx_autosize;
	Policies policies = preset_policies(Preset::tx_autosize);
	std::string from;  // "--rules", "declared by plugin tx-autosize", ...

	// The policies that differ from the preset's ("key=value ...").
	std::string overrides() const;
	// "tx-autosize" or "tx-autosize + tx_niov_max=1M".
	std::string label() const;
	// The command-line flags that give exactly these rules, for replay
	// commands: "--rules tx-autosize --policy tx_niov_max=1M".
	std::string flags() const;
	// The same as environment assignments for the fuzz targets.
	std::string env() const;
	// A scenario of these rules: the same policies (the preset's name
	// alone does not decide; the policies are what the model runs).
	bool matches(const Scenario &sc) const;
	// Run @sc under these rules instead of its own.
	void pin(Scenario &sc) const;
};

// Throws RulesError.  @plugin may be null: then only the request counts and
// must name the rules.  A broken variant's policy (ops->must_catch set) names
// its slip for the proofs; the variant is judged by its declared preset.
RulesInForce resolve_rules(const RulesRequest &req, const PluginImpl *plugin);

// The request's policies applied on top of @base; throws RulesError.
void apply_policy_request(Policies &base, const std::vector<std::string> &policies,
			  const std::string &policy_name);

}  // namespace niov
