// sizing.*: the TX niov size chosen at bind.
#include "props_common.hpp"
#include "segs.hpp"

namespace niov::props {

namespace {

// A TX bind over honest and lying sg tables, no sends: the size is all
// these properties look at.
Scenario gen_tx_bind(const Target &t, bool robust) {
	Shape s = shape_for(t, robust);
	return *gen_scenario(s);
}

// For every trace that bound: call @check(trace, niov size).
template <typename Check>
void each_bound(const RunReport &r, Check &&check) {
	for (const Trace *tr : traces(r))
		if (tr->bind.err == 0)
			check(*tr, niov_size(tr->bind.niov_shift));
}

void loop_matches_decl(const Target &t) {
	const Scenario sc = gen_tx_bind(t, true);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const auto segs = concrete_segs(sc);
	const unsigned ps = sc.cfg.page_shift;
	const unsigned cap = sc.cfg.policy.tx_niov_max_shift;
	for (TxNiov mode : {TxNiov::autosize, TxNiov::autosize_noaddr}) {
		const uint64_t loop = rules::tx_size_loop<Concrete>(mode, ps, sc.dmabuf_size, segs, cap);
		const uint64_t decl = rules::tx_size_decl<Concrete>(mode, ps, sc.dmabuf_size, segs, cap);
		const uint64_t want = oracle::tx_niov_size(mode, ps, sc.dmabuf_size, sc.segs, cap);
		if (loop != decl || loop != want)
			fail("tx_niov={}: halving loop {:#x}, declarative {:#x}, top-down search {:#x}",
			     mode == TxNiov::autosize ? "auto" : "auto-noaddr", loop, decl, want);
	}
	const RunReport r = t.run(sc);
	each_bound(r, [&](const Trace &tr, uint64_t n) {
		const TxNiov mode = sc.cfg.policy.tx_niov;
		const uint64_t want = oracle::tx_niov_size(mode, ps, sc.dmabuf_size, sc.segs, cap);
		if (mode != TxNiov::page && n != want)
			fail("{} bound TX niovs of {:#x}, the sizing rule gives {:#x}", tr.source, n, want);
	});
	require_clean(r, sc, Inv::sizing_loop_matches_decl);
}

void pow2_range(const Target &t) {
	const Scenario sc = gen_tx_bind(t, false);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const uint64_t page = sc.cfg.page_size();
	each_bound(r, [&](const Trace &tr, uint64_t n) {
		const uint64_t cap = uint64_t{1} << sc.cfg.policy.tx_niov_max_shift;
		if (n < page || n > cap || (n & (n - 1)))
			fail("{} bound TX niovs of {:#x}: not a power of two in [{:#x}, {:#x}]", tr.source, n, page, cap);
		if (sc.cfg.policy.tx_niov == TxNiov::page && n != page)
			fail("{}: tx_niov=page but niovs of {:#x}", tr.source, n);
	});
	require_clean(r, sc, Inv::sizing_pow2_range);
}

void aligns_dmabuf(const Target &t) {
	const Scenario sc = gen_tx_bind(t, false);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	// A known finding (an unchecked bind, a lying exporter): the model and
	// the code are held to each other only.
	const bool known = excused(sc, Inv::sizing_aligns_dmabuf, Inv::sizing_aligns_dmabuf);
	each_bound(r, [&](const Trace &tr, uint64_t n) {
		if (known)
			return;
		if (sc.dmabuf_size % n)
			fail("{}: niov size {:#x} does not divide the dmabuf size {:#x}", tr.source, n, sc.dmabuf_size);
		if (tr.bind.num_niovs * n != sc.dmabuf_size)
			fail("{}: {} niovs of {:#x} for a dmabuf of {:#x}", tr.source, tr.bind.num_niovs, n,
			     sc.dmabuf_size);
	});
	require_clean(r, sc, Inv::sizing_aligns_dmabuf);
}

void aligns_segments(const Target &t) {
	const Scenario sc = gen_tx_bind(t, false);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	each_bound(r, [&](const Trace &tr, uint64_t n) {
		// A gen_pool-era bind of PAGE_SIZE niovs never looked at addresses
		// and needed not: a page-sized niov never straddles a segment.
		const bool addrs = sc.cfg.policy.bind == BindStyle::freelist || n > sc.cfg.page_size();
		for (size_t i = 0; i < sc.segs.size(); ++i) {
			const auto &s = sc.segs[i];
			if (s.len % n || (addrs && s.addr % n))
				fail("{}: niovs of {:#x} over segment {} ({:#x} +{:#x})", tr.source, n, i, s.addr, s.len);
		}
	});
	require_clean(r, sc, Inv::sizing_aligns_segments);
}

void maximal(const Target &t) {
	const Scenario sc = gen_tx_bind(t, false);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const TxNiov mode = sc.cfg.policy.tx_niov;
	each_bound(r, [&](const Trace &tr, uint64_t n) {
		if (mode == TxNiov::page) {
			if (n != sc.cfg.page_size())
				fail("{}: tx_niov=page but niovs of {:#x}", tr.source, n);
			return;
		}
		if (n < (uint64_t{1} << sc.cfg.policy.tx_niov_max_shift) &&
		    oracle::divides_all(mode, 2 * n, sc.dmabuf_size, sc.segs))
			fail("{}: niovs of {:#x} but {:#x} divides the dmabuf and every segment", tr.source, n, 2 * n);
	});
	require_clean(r, sc, Inv::sizing_maximal);
}

}  // namespace

void add_sizing_properties(std::vector<Property> &out) {
	out.push_back({"sizing.loop_matches_decl",
		       "the halving loop, the declarative form and a top-down search agree (every policy)",
		       loop_matches_decl});
	out.push_back({"sizing.pow2_range", "a bound TX niov size is a power of two in [PAGE_SIZE, tx_niov_max (2 MiB)]",
		       pow2_range});
	out.push_back({"sizing.aligns_dmabuf", "a bound niov size divides the dmabuf size", aligns_dmabuf});
	out.push_back({"sizing.aligns_segments", "a bound niov size divides every segment address and length",
		       aligns_segments});
	out.push_back({"sizing.maximal", "no larger power of two up to tx_niov_max (2 MiB) would have fit", maximal});
}

}  // namespace niov::props
