// rx.alloc_*: the RX allocator of a binding, swept by the runner (two
// rounds of num_niovs + 1 allocations), against the oracle of RULES.md "RX
// allocator".
#include "findings.hpp"
#include "props_common.hpp"
#include "rx_sweep.hpp"
#include "seg_lookup.hpp"

namespace niov::props {

namespace {

Scenario gen_rx(const Target &t) {
	Shape s = shape_for(t, false);
	s.dirs = {Dir::rx};
	return *gen_scenario(s);
}

// What every swept trace handed out: where each niov is and what it maps.
void alloc_byte_map(const Target &t) {
	const Scenario sc = gen_rx(t);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc, Target::Sweep::rx_allocator);
	RC_CLASSIFY(r.model.rx_alloc.ran, "swept");
	for (const Trace *tr : traces(r)) {
		if (!tr->rx_alloc.ran)
			continue;
		const unsigned shift = tr->bind.niov_shift;
		const uint64_t n = niov_size(shift);
		const oracle::SegLookup look(sc, shift);
		for (const auto &niov : tr->rx_alloc.niovs) {
			const auto virt = look.niov_virt(tr->bind.num_niovs, niov.idx);
			const auto dma = look.niov_dma(tr->bind.num_niovs, niov.idx);
			if (!virt || *virt != niov.virt || !dma || *dma != niov.dma)
				fail("{}: the allocator handed out niov {} at offset {:#x} DMA {:#x}; the sg table puts it at "
				     "{} DMA {}",
				     tr->source, niov.idx, niov.virt, niov.dma, virt ? fmt::format("{:#x}", *virt) : "none",
				     dma ? fmt::format("{:#x}", *dma) : "none");
			// Whole niovs everywhere: each sits aligned where the byte map says.
			if (unchecked_layout(sc))
				continue;
			const auto mapped = look.byte_map(niov.virt);
			if (niov.virt % n || (mapped && *mapped != niov.dma))
				fail("{}: niov {} at offset {:#x} (niov size {:#x}) has DMA {:#x}, the byte map says {}",
				     tr->source, niov.idx, niov.virt, n, niov.dma,
				     mapped ? fmt::format("{:#x}", *mapped) : "none");
		}
	}
	require_clean(r, sc, Inv::rx_alloc_byte_map);
}

void alloc_count(const Target &t) {
	const Scenario sc = gen_rx(t);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc, Target::Sweep::rx_allocator);
	RC_CLASSIFY(r.model.rx_alloc.ran, "swept");
	for (const Trace *tr : traces(r)) {
		const auto &a = tr->rx_alloc;
		if (tr->bind.err || tr->bind.num_niovs > Target::kSweepMaxNiovs) {
			if (a.ran)
				fail("{}: the allocator of a {} binding was swept", tr->source,
				     tr->bind.err ? "failed" : "too large");
			continue;
		}
		if (!a.ran)
			continue;  // a plugin without an allocator: not run, said by the trace
		const uint64_t want = oracle::rx_alloc_handed(sc, tr->bind.niov_shift, tr->bind.num_niovs);
		// Frees that go astray (a known finding) leave round 2 short.
		const bool again = !genpool_frees_astray(sc);
		if (a.rounds[0].handed != want || (again && (a.rounds[1].handed != want || !a.same_again)) ||
		    a.rounds[0].handed + a.rounds[0].failed != tr->bind.num_niovs + 1)
			fail("{}: the allocator handed out {} then {} of {} niovs ({} calls failed), the rules say {} each "
			     "round",
			     tr->source, a.rounds[0].handed, a.rounds[1].handed, tr->bind.num_niovs, a.rounds[0].failed,
			     want);
	}
	require_clean(r, sc, Inv::rx_alloc_count);
}

}  // namespace

void add_rx_alloc_properties(std::vector<Property> &out) {
	out.push_back({"rx.alloc_byte_map",
		       "every niov the RX allocator hands out is where the sg table puts it, aligned, on the byte map",
		       alloc_byte_map});
	out.push_back({"rx.alloc_count",
		       "the RX allocator hands out every niov once per round (gen_pool: but the one at DMA 0)",
		       alloc_count});
}

}  // namespace niov::props
