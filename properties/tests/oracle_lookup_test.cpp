// SegLookup answers what the oracle's walks answer (they stay the
// specification), over tables with empty, huge and wrapping entries and
// probes at every entry's edges.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "oracle.hpp"
#include "seg_lookup.hpp"

namespace niov::props {
namespace {

rc::Gen<DmaSeg> gen_entry() {
	return rc::gen::build<DmaSeg>(
		rc::gen::set(&DmaSeg::addr, rc::gen::oneOf(rc::gen::element<uint64_t>(0, 1 << 12, UINT64_MAX - 4095),
							   rc::gen::arbitrary<uint64_t>())),
		rc::gen::set(&DmaSeg::len, rc::gen::oneOf(rc::gen::element<uint64_t>(0, 4096, 8192, 1 << 21),
							  rc::gen::inRange<uint64_t>(0, 1 << 22),
							  rc::gen::element<uint64_t>(uint64_t{1} << 63, UINT64_MAX))));
}

// Offsets and niov indices at, before and after every entry's first and
// last, and a few anywhere.
std::vector<uint64_t> probes(const std::vector<DmaSeg> &segs, unsigned shift, bool niovs) {
	std::vector<uint64_t> out = {0, 1, UINT64_MAX};
	unsigned __int128 at = 0;
	for (const auto &s : segs) {
		const uint64_t step = niovs ? s.len >> shift : s.len;
		for (const unsigned __int128 p : {at, at + step}) {
			const auto v = static_cast<uint64_t>(p);
			out.insert(out.end(), {v - 1, v, v + 1});
		}
		at += step;
	}
	for (int i = 0; i < 4; ++i)
		out.push_back(*rc::gen::arbitrary<uint64_t>());
	return out;
}

TEST(OracleLookup, AnswersWhatTheWalksAnswer) {
	const bool ok = rc::check("SegLookup == the oracle's walks", [] {
		Scenario sc;
		sc.segs = *rc::gen::container<std::vector<DmaSeg>>(gen_entry());
		sc.cfg.policy.bind = *rc::gen::element(BindStyle::genpool, BindStyle::freelist,
						       BindStyle::genpool_unchecked);
		const unsigned shift = *rc::gen::inRange(12u, 22u);
		const uint64_t num = *rc::gen::oneOf(rc::gen::just(UINT64_MAX), rc::gen::inRange<uint64_t>(0, 5000));
		const oracle::SegLookup look(sc, shift);
		for (const uint64_t v : probes(sc.segs, shift, false))
			RC_ASSERT(look.byte_map(v) == oracle::byte_map(sc.segs, v));
		for (const uint64_t idx : probes(sc.segs, shift, true)) {
			RC_ASSERT(look.niov_dma(num, idx) == oracle::niov_dma(sc.segs, shift, num, idx));
			RC_ASSERT(look.niov_virt(num, idx) == oracle::niov_virt(sc, shift, num, idx));
		}
	});
	EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace niov::props
