#include "kernel_rules.hpp"

#include <fmt/format.h>

#include "config.hpp"

namespace niov::cli {

namespace {

// The preset with the choices applied, and how many of them it had to
// change: first whether it sizes TX niovs as the code does (what tells the
// eras' presets apart), then how many others.
struct Fit {
	Preset preset;
	Policies policies;
	std::size_t sizing_changed = 0, changed = 0;
	bool better_than(const Fit &o) const {
		return sizing_changed != o.sizing_changed ? sizing_changed < o.sizing_changed : changed < o.changed;
	}
};

Fit fit(Preset p, const kernel::RuleChoices &c, std::vector<std::string> &notes) {
	Fit f{p, preset_policies(p)};
	for (const auto &ch : c.read) {
		Policies before = f.policies;
		// A value the model cannot express (a sizing cap outside
		// tx_niov_max's range, say) is no policy: the code is judged by the
		// preset's, and every difference that makes is reported.
		if (!apply_policy(f.policies, ch.key, ch.value)) {
			notes.push_back(fmt::format("{}: reads as {}={}, which the model does not express: judged by {}'s",
						    ch.evidence, ch.key, ch.value, name(p)));
			continue;
		}
		const bool changed = !(before == f.policies);
		f.changed += changed;
		f.sizing_changed += changed && ch.key == "tx_niov";
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
		std::vector<std::string> notes;
		Fit f = fit(*p, era.choices, notes);
		// The older preset wins a tie: it asks for fewer of the series' moves.
		if (!best || f.better_than(*best)) {
			best = std::move(f);
			out.notes = std::move(notes);
		}
	}
	if (!best) throw kernel::KernelTreeError("era " + era.letter + " has no preset");
	out.preset = std::string(name(best->preset));
	out.policy = policy_overrides(best->policies, preset_policies(best->preset));
	for (const auto &ch : era.choices.read)
		out.lines.push_back(fmt::format("{}={}: {}", ch.key, ch.value, ch.evidence));
	return out;
}

}  // namespace niov::cli
