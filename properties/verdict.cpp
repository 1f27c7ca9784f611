#include "verdict.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "findings.hpp"

namespace niov::props {

std::optional<Inv> inv_from_id(std::string_view id) {
	for (const auto &i : kInvariants)
		if (i.id == id)
			return i.inv;
	return std::nullopt;
}

bool excused(const Scenario &sc, Inv inv, std::optional<Inv> own) {
	if (own && inv == *own && policies_overridden(sc)) {
		Scenario as_preset = sc;
		as_preset.cfg.policy = preset_policies(sc.cfg.preset);
		return is_known_finding(as_preset, inv);
	}
	return is_known_finding(sc, inv);
}

void require_clean(const Trace &t, const Scenario &sc, std::optional<Inv> own) {
	for (const auto &v : t.violations) {
		const auto inv = inv_from_id(v.invariant);
		if (!inv || !excused(sc, *inv, own))
			RC_FAIL(fmt::format("{} violates {} at step {}: {}", v.source, v.invariant, v.step,
					    v.detail));
	}
}

void require_no_differences(const std::vector<Difference> &diffs) {
	if (!diffs.empty()) {
		const auto &d = diffs.front();
		RC_FAIL(fmt::format("model and implementation differ at step {}: {}: model {} / impl {} "
				    "({} differences)",
				    d.step, d.what, d.model, d.impl, diffs.size()));
	}
}

void require_clean(const RunReport &r, const Scenario &sc, std::optional<Inv> own) {
	require_clean(r.model, sc, own);
	if (r.impl)
		require_clean(*r.impl, sc, own);
	require_no_differences(r.differences);
}

bool reports(const Trace &t, Inv inv) {
	for (const auto &v : t.violations)
		if (v.invariant == id(inv))
			return true;
	return false;
}

}  // namespace niov::props
