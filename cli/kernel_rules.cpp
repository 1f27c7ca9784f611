#include "kernel_rules.hpp"

#include <fmt/format.h>

#include "config.hpp"

namespace niov::cli {

namespace {

// The preset with the choices applied, and how many of them it had to change.
struct Fit {
	Preset preset;
	Policies policies;
	std::size_t changed = 0;
};

Fit fit(Preset p, const kernel::RuleChoices &c, std::vector<std::string> &ambiguous) {
	Fit f{p, preset_policies(p)};
	for (const auto &ch : c.read) {
		Policies before = f.policies;
		if (!apply_policy(f.policies, ch.key, ch.value)) {
			ambiguous.push_back(fmt::format("{}: reads as {}={}, which the model has no policy value for",
							ch.evidence, ch.key, ch.value));
			continue;
		}
		f.changed += !(before == f.policies);
	}
	return f;
}

}  // namespace

KernelRules kernel_rules(const kernel::EraProbe &era) {
	KernelRules out;
	out.ambiguous = era.choices.ambiguous;
	std::optional<Fit> best;
	for (const auto &name : era.presets) {
		const auto p = parse_preset(name);
		if (!p) throw kernel::KernelTreeError("era " + era.letter + " names an unknown preset " + name);
		std::vector<std::string> unused;
		Fit f = fit(*p, era.choices, best ? unused : out.ambiguous);
		// The older preset wins a tie: it asks for fewer of the series' moves.
		if (!best || f.changed < best->changed) best = std::move(f);
	}
	if (!best) throw kernel::KernelTreeError("era " + era.letter + " has no preset");
	out.preset = std::string(name(best->preset));
	out.policy = policy_overrides(best->policies, preset_policies(best->preset));
	for (const auto &ch : era.choices.read)
		out.lines.push_back(fmt::format("{}={}: {}", ch.key, ch.value, ch.evidence));
	return out;
}

}  // namespace niov::cli
