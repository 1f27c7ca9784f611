// unsound.*: partial seed 000 series that must come out sat.  Each names the
// lemma that breaks, the policies (overrides of the tx-autosize preset) and
// the configuration; prove writes the counterexample as a scenario and
// replays it through the model to confirm the same invariant violation.
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

// @niov_shift 0: every shift the policies allow.
Point at(unsigned page_shift, Device dev, unsigned niov_shift) {
	Point p;
	p.page_shift = page_shift;
	p.dev = dev;
	p.niov_shift = niov_shift;
	return p;
}

}  // namespace

std::vector<UnsoundCheck> unsound_checks() {
	return {
		{"unsound.truesize_page", "clamp.charge_covers", "truesize=page", at(12, Device::none, 21),
		 "patch 6 without patch 2: 2 MiB niovs charged PAGE_SIZE break truesize >= bytes"},
		{"unsound.lookup_page", "lookup.off_size", "lookup=page", at(12, Device::none, 21),
		 "patch 6 without patch 3: PAGE_SIZE lookup in large niovs breaks off + size == niov size"},
		{"unsound.max_frag_none_bnxt", "clamp.desc_exact", "max_frag=none", at(12, Device::bnxt, 21),
		 "patch 6 without patches 4-5 on bnxt: frags of 64 KiB or more wrap the 16-bit BD length"},
		{"unsound.noaddr_genpool", "sizing.aligns_segments", "tx_niov=auto-noaddr bind=genpool",
		 at(12, Device::none, 0),
		 "TX sizing without the DMA-address check on a gen_pool bind: niovs off their alignment"},
	};
}

}  // namespace niov::smt::lemmas
