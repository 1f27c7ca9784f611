// fault.errno: generated bind scenarios through the fault sweep
// (model/check/faults.hpp) of a plugin that injects faults: every failed call of
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
	// A bind of many sg entries makes hundreds of calls, each failed in a
	// bind of its own: the first and the last of each kind, and two the
	// case draws, instead of all (the faults engine fails every one).
	const FaultSweep sw = sweep_faults(sc, *plugin, rules, [](uint32_t, uint64_t calls) {
		std::vector<uint64_t> v;
		if (calls)
			v.push_back(1);
		if (calls > 1)
			v.push_back(calls);
		for (int i = 0; i < 2 && calls > 2; ++i)
			v.push_back(*rc::gen::inRange<uint64_t>(2, calls));
		return v;
	});
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
