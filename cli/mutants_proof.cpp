// Scoreboard engine "proof": a variant that is a rule change (its plugin
// names the policy overrides it equals) is proved against the lemma
// catalogue; a confirmed counterexample is the catch.  Variants that change
// code but not a rule are outside what the proofs speak about: n/a.
#include "hunt.hpp"
#include "mutants.hpp"

namespace niov::cli {

Catch proof_engine(const Variant &v, const MutantsOptions &opt) {
	Catch c;
	if (v.policy.empty()) {
		c.note = "the variant is not a rule change (no policy in its plugin), so the proofs do not speak about it";
		return c;
	}
	c.ran = true;
	const auto h = smt::hunt_policy(v.policy, v.must_catch, opt.failure_dir + "/prove-" + v.name,
					opt.proof_timeout_ms);
	c.seconds = h.seconds;
	c.note = h.note;
	if (!h.found)
		return c;
	c.noticed = true;
	c.invariant = h.invariant;
	for (const auto &x : h.violations)
		c.caught |= x == v.must_catch;
	c.caught |= h.invariant == v.must_catch;
	c.replay = h.scenario.empty() ? "niovcheck prove --lemma " + h.lemma
				      : opt.bin_dir + "/niovcheck replay " + h.scenario;
	return c;
}

}  // namespace niov::cli
