// Scoreboard engine "props": the property checks against the variant with
// the presubmit budget, the property of its must-catch invariant first.
#include "mutants.hpp"
#include "runner.hpp"
#include "target.hpp"

namespace niov::cli {

Catch props_engine(const Variant &v, const MutantsOptions &opt) {
	using namespace niov::props;
	Catch c;
	c.ran = true;
	// The target holds the variant itself; the plugin list is not needed.
	const LoadedTarget lt = load_target(v.path, "", v.request);
	RunParams rp;
	if (opt.prop_cases)
		rp.cases = opt.prop_cases;
	rp.seed = opt.seed;
	rp.tag = v.name;
	rp.failure_dir = opt.failure_dir;
	rp.niovcheck = opt.bin_dir + "/niovcheck";
	rp.rules_flags = v.rules.flags();
	const std::string must = v.must_catch.empty() ? "" : property_for(v.must_catch);
	const auto failed = first_failure(lt.target, must, rp, c.seconds);
	if (!failed)
		return c;
	c.noticed = true;
	c.caught = must.empty() || failed->name == must;
	c.invariant = failed->name == "diff.model_vs_impl" ? "difference" : failed->name;
	c.replay = failed->replay;
	c.note = failed->description;
	return c;
}

}  // namespace niov::cli
