// bind.*, rx.* and zcrx.*: what a bind (and opening a queue on it) answers,
// errno and error order included, against the oracle of RULES.md.
#include "props_common.hpp"

namespace niov::props {

namespace {

Scenario gen_bind(const Target &t, std::vector<Dir> dirs) {
	Shape s = shape_for(t, false);
	s.dirs = std::move(dirs);
	return *gen_scenario(s);
}

// The trace's bind against the oracle: errno, then shift and count.
void expect_bind(const Trace &tr, const oracle::Bind &want) {
	// Code that cannot take the input at all (a u32 sg length given 4 GiB, a
	// table past the memory cap) is not compared, as replay and check do not.
	if (tr.bind.not_representable())
		return;
	if (tr.bind.err != want.err)
		fail("{}: bind returned {}, the rules say {}", tr.source, errno_name(tr.bind.err),
		     errno_name(want.err));
	if (want.err == 0 && (tr.bind.niov_shift != want.shift || tr.bind.num_niovs != want.num_niovs))
		fail("{}: bound {} niovs of shift {}, the rules say {} of shift {}", tr.source, tr.bind.num_niovs,
		     tr.bind.niov_shift, want.num_niovs, want.shift);
}

void expect_queue(const Scenario &sc, const Trace &tr) {
	if (tr.bind.err)
		return;
	const auto q = oracle::rx_queue(sc, tr.bind.niov_shift);
	if (tr.queue_err != q.err)
		fail("{}: opening the queue returned {}, the rules say {}", tr.source, errno_name(tr.queue_err),
		     errno_name(q.err));
	if (tr.pp_order != q.order)
		fail("{}: page_pool order {}, expected {}", tr.source, tr.pp_order, q.order);
	// MAX_PAGE_ORDER does not bound it: memory-provider pools skip that check.
	if (q.err == 0 && q.order + sc.cfg.page_shift != tr.bind.niov_shift)
		fail("{}: queue opened with page_pool order {} for niov shift {} (PAGE_SHIFT {})", tr.source, q.order,
		     tr.bind.niov_shift, sc.cfg.page_shift);
}

void niov_count(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::tx, Dir::rx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const auto want = oracle::bind(sc);
	for (const Trace *tr : traces(r)) {
		expect_bind(*tr, want);
		if (tr->bind.err == 0 && tr->bind.num_niovs > UINT32_MAX)
			fail("{}: {} niovs do not fit the u32 count", tr->source, tr->bind.num_niovs);
	}
	require_clean(r, sc, Inv::bind_niov_count);
}

void sg_covers_dmabuf(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::tx, Dir::rx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	unsigned __int128 total = 0;
	for (const auto &s : sc.segs)
		total += s.len;
	const bool lies = total != sc.dmabuf_size;
	// The checker must see every lie a bind lets through, and no other.
	for (const Trace *tr : traces(r))
		if (tr->bind.err == 0 && reports(*tr, Inv::bind_sg_covers_dmabuf) != lies)
			fail("{}: segments total {:#x}, dmabuf {:#x}, but bind.sg_covers_dmabuf {}", tr->source,
			     static_cast<uint64_t>(total), sc.dmabuf_size, lies ? "not reported" : "reported");
	require_clean(r, sc, Inv::bind_sg_covers_dmabuf);
}

void niov_dma(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::tx, Dir::rx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	for (const Trace *tr : traces(r)) {
		if (tr->bind.err)
			continue;
		for (const auto &[idx, dma] : tr->niov_probes) {
			const auto want = oracle::niov_dma(sc.segs, tr->bind.niov_shift, tr->bind.num_niovs, idx);
			if (dma != want)
				fail("{}: niov {} has DMA address {}, the sg table puts it at {}", tr->source, idx,
				     dma ? fmt::format("{:#x}", *dma) : "none", want ? fmt::format("{:#x}", *want) : "none");
		}
	}
	require_clean(r, sc, Inv::bind_niov_dma);
}

void rx_shift_matches_attr(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::rx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const auto want = oracle::bind(sc);
	for (const Trace *tr : traces(r)) {
		expect_bind(*tr, want);
		const uint64_t n = niov_size(tr->bind.niov_shift);
		if (tr->bind.err == 0 && n != (sc.rx_buf_size ? *sc.rx_buf_size : sc.cfg.page_size()))
			fail("{}: rx-buf-size {} bound niovs of {:#x}", tr->source,
			     sc.rx_buf_size ? std::to_string(*sc.rx_buf_size) : "absent", n);
	}
	require_clean(r, sc, Inv::rx_shift_matches_attr);
}

void rx_pp_order(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::rx, Dir::zcrx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	for (const Trace *tr : traces(r))
		expect_queue(sc, *tr);
	require_clean(r, sc, Inv::rx_pp_order);
}

void zcrx_rx_buf_len(const Target &t) {
	const Scenario sc = gen_bind(t, {Dir::zcrx});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const auto want = oracle::bind(sc);
	for (const Trace *tr : traces(r)) {
		expect_bind(*tr, want);
		if (tr->bind.err)
			continue;
		const uint64_t n = niov_size(tr->bind.niov_shift);
		if (n < sc.cfg.page_size() || tr->bind.niov_shift > oracle::area_max_shift(sc.segs))
			fail("{}: rx_buf_len {} accepted as {:#x}-byte buffers over an area aligned to 2^{}",
			     tr->source, sc.rx_buf_size.value_or(0), n, oracle::area_max_shift(sc.segs));
		expect_queue(sc, *tr);
	}
	require_clean(r, sc, Inv::zcrx_rx_buf_len);
}

}  // namespace

void add_bind_properties(std::vector<Property> &out) {
	out.push_back({"bind.niov_count", "bind errno and error order, num_niovs == size >> shift <= U32_MAX",
		       niov_count});
	out.push_back({"bind.sg_covers_dmabuf", "the checker reports exactly the sg tables that lie about the size",
		       sg_covers_dmabuf});
	out.push_back({"bind.niov_dma", "every niov's DMA address is where the sg table puts it", niov_dma});
	out.push_back({"rx.shift_matches_attr", "RX binds honour rx-buf-size, errno and error order included",
		       rx_shift_matches_attr});
	out.push_back({"rx.pp_order", "queue open: device support, range and page_pool order rules", rx_pp_order});
	out.push_back({"zcrx.rx_buf_len", "zcrx rx_buf_len validation, then the device rules", zcrx_rx_buf_len});
}

}  // namespace niov::props
