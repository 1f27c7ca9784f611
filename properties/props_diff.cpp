// The differential property: whole scenarios (every direction, sends and
// TCP operations) through the model and the implementation; same errnos,
// same niov table, same frags and charges, and no violation a scenario's
// inputs do not explain, on either side.
#include "props_common.hpp"

namespace niov::props {

namespace {

void model_vs_impl(const Target &t) {
	Shape s = shape_for(t, false);
	s.dirs = {Dir::tx, Dir::tx, Dir::tx, Dir::rx, Dir::zcrx};
	s.max_sends = 4;
	s.tcp_ops = true;
	const Scenario sc = *gen_scenario(s);
	CaseGuard guard(sc, t.impl_path_for(sc));
	require_clean(t.run(sc, Target::Sweep::rx_allocator), sc, std::nullopt);
}

}  // namespace

void add_diff_properties(std::vector<Property> &out) {
	out.push_back({"diff.model_vs_impl",
		       "model and implementation agree on every answer and neither breaks an invariant",
		       model_vs_impl});
}

}  // namespace niov::props
