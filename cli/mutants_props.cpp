// Scoreboard engine "props": the property checks against the variant with
// the presubmit budget, the property of its must-catch invariant first.
#include "mutants.hpp"
#include "plugin_load.hpp"
#include "props_isolated.hpp"
#include "runner.hpp"
#include "target.hpp"
#include "work_dir.hpp"

namespace niov::cli {

Catch props_engine(const Variant &v, const MutantsOptions &opt) {
	using namespace niov::props;
	Catch c;
	c.ran = true;
	// The target holds the variant itself; the plugin list is not needed.
	const LoadedTarget lt = load_target(v.path, "", v.request, opt.limits);
	RunParams rp;
	if (opt.prop_cases)
		rp.cases = opt.prop_cases;
	rp.seed = opt.seed;
	rp.tag = safe_component(v.name);  // a file name part: never a path a plugin chose
	rp.failure_dir = opt.failure_dir;
	rp.niovcheck = opt.bin_dir + "/niovcheck";
	rp.rules_flags = v.rules.flags();
	const std::string must = v.must_catch.empty() ? "" : property_for(v.must_catch);
	const auto failed = first_failure_isolated(lt, must, rp, opt.limits, c.seconds);
	if (!failed)
		return c;
	const Outcome &o = failed->outcome;
	c.noticed = true;
	if (!failed->findings.empty()) {
		const auto &f = failed->findings.front();
		const Judged j = judge_finding(v, f.id);
		c.fault = j.fault;
		c.caught = j.caught;
		c.invariant = f.id;
		c.replay = f.replay;
		c.note = f.what + " (" + f.where + ")";
		return c;
	}
	c.invariant = o.name == "diff.model_vs_impl" ? "difference" : o.name;
	c.replay = o.replay;
	c.note = o.description;
	// A catch is a finding someone can see again: one without a replay
	// command is only noticed.
	c.caught = (must.empty() || o.name == must) && !c.replay.empty();
	return c;
}

}  // namespace niov::cli
