// res.*: whole scenarios (every direction, sends and TCP operations)
// through an implementation that keeps resource counters: once every frag
// went back and the binding is unbound, nothing it took is still held and
// nothing WARNed.  The model keeps no resources: without a plugin that
// does, these are not run.
#include "props_common.hpp"

namespace niov::props {

namespace {

template <Inv kInv>
void balanced(const Target &t) {
	Shape s = shape_for(t, false);
	s.dirs = {Dir::tx, Dir::tx, Dir::rx, Dir::zcrx};
	s.max_sends = 3;
	s.tcp_ops = true;
	const Scenario sc = *gen_scenario(s);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc, Target::Sweep::rx_allocator);
	RC_CLASSIFY(r.impl && r.impl->res_after, "counted");
	require_clean(r, sc, kInv);
}

}  // namespace

void add_resource_properties(std::vector<Property> &out) {
	out.push_back({"res.no_leak", "a bind and its unbind (or its failure) give back every allocation, dma-buf "
				      "reference and mapping",
		       balanced<Inv::res_no_leak>});
	out.push_back({"res.refs_balanced", "every niov and binding reference the fill took is back after the frags "
					    "and the binding went",
		       balanced<Inv::res_refs_balanced>});
	out.push_back({"res.no_warn", "no WARN and no BUG in any bind, fill, allocation or unbind",
		       balanced<Inv::res_no_warn>});
}

}  // namespace niov::props
