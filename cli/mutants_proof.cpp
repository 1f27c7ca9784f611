// Scoreboard engine "proof": a variant that is a rule change (its plugin
// names the policy overrides it equals) is proved against the lemma
// catalogue; a confirmed counterexample is the catch.  Variants that change
// code but not a rule are outside what the proofs speak about: n/a.
#include "hunt.hpp"
#include "mutants.hpp"
#include "replay_command.hpp"
#include "work_dir.hpp"

namespace niov::cli {

Catch proof_engine(const Variant &v, const MutantsOptions &opt) {
	Catch c;
	// The slip as a rule change, else the rules in force when they change
	// tx-autosize's (a declared rule change is proved like a slip).
	std::string policy = v.policy;
	if (policy.empty() && v.rules.preset == Preset::tx_autosize)
		policy = v.rules.overrides();
	if (policy.empty()) {
		c.note = "the variant is not a rule change (no policy in its plugin), so the proofs do not speak about it";
		return c;
	}
	c.ran = true;
	const auto h = smt::hunt_policy(policy, v.must_catch, opt.failure_dir + "/prove-" + safe_component(v.name),
					opt.proof_timeout_ms);
	c.seconds = h.seconds;
	c.note = h.note;
	if (!h.found)
		return c;
	c.noticed = true;
	c.invariant = h.invariant;
	for (const auto &x : h.violations)
		c.caught |= v.caught_by(x);
	c.caught |= v.caught_by(h.invariant);
	c.replay = h.scenario.empty() ? "niovcheck prove --lemma " + h.lemma
				      : replay_command_line(opt.bin_dir + "/niovcheck", h.scenario, "", "");
	return c;
}

}  // namespace niov::cli
