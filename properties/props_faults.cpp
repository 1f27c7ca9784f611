// fault.errno: generated bind scenarios through the fault sweep
// (model/faults.hpp) of a plugin that injects faults: every failed call of
// every kind gives an errno the kernel gives there and leaves nothing
// behind.  The model injects nothing: without such a plugin, not run.
#include "faults.hpp"
#include "props_common.hpp"

namespace niov::props {

namespace {

void fault_errno(const Target &t) {
	Shape s = shape_for(t, false);
	s.dirs = {Dir::tx, Dir::rx};
	const Scenario sc = *gen_scenario(s);
	auto *plugin = dynamic_cast<PluginImpl *>(t.impl_for(sc));
	RC_PRE(plugin != nullptr);
	CaseGuard guard(sc, t.impl_path_for(sc));
	// The case was generated under the run's rules: the sweep keeps them.
	RulesInForce rules;
	rules.preset = sc.cfg.preset;
	rules.policies = sc.cfg.policy;
	const FaultSweep sw = sweep_faults(sc, *plugin, rules);
	RC_CLASSIFY(sw.not_run.empty(), "swept");
	for (const auto &v : sw.violations) {
		const auto inv = inv_from_id(v.invariant);
		if (!inv || !excused(sc, *inv, Inv::fault_errno))
			fail("{} violates {} at injected failure {}: {}", v.source, v.invariant, v.step, v.detail);
	}
}

}  // namespace

void add_fault_properties(std::vector<Property> &out) {
	out.push_back({"fault.errno",
		       "each failed allocation, dma-buf or id step of a bind gives the kernel's errno and leaks nothing",
		       fault_errno});
}

}  // namespace niov::props
