// Invariant checks: every predicate of invariants.hpp evaluated on what an
// implementation answered.
#include "checks.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "findings.hpp"

namespace niov {

namespace {

using W = Concrete;

uint64_t niov_size_of(unsigned shift) { return shift < 64 ? uint64_t{1} << shift : 0; }

}  // namespace

Checker::Checker(const Scenario &sc, Impl &impl, Trace &t, const RunOptions &opts)
	: sc_(sc), impl_(impl), t_(t), opts_(opts), segs_(concrete_segs(sc)) {}

bool Checker::wants(Inv inv) {
	if (!opts_.check)
		return false;
	if (seen_step_ != step_) {
		seen_step_ = step_;
		seen_ = 0;
	}
	const uint64_t bit = uint64_t{1} << static_cast<unsigned>(inv);
	if ((seen_ & bit) || t_.violations.size() >= opts_.max_violations)
		return false;
	if (!opts_.skip_known_findings)
		return true;
	if (!(known_asked_ & bit)) {
		known_asked_ |= bit;
		if (is_known_finding(sc_, inv))
			known_ |= bit;
	}
	return !(known_ & bit);
}

void Checker::fail(Inv inv, std::string detail) {
	if (!wants(inv))
		return;
	seen_ |= uint64_t{1} << static_cast<unsigned>(inv);
	t_.violations.push_back({std::string(id(inv)), step_, line_, t_.source, std::move(detail)});
}

bool Checker::byte_map_at(uint64_t virt, uint64_t &dma) const {
	const auto a = segs_.byte_map(virt);
	dma = a.dma;
	return a.ok;
}

void Checker::after_bind() {
	if (!opts_.check)
		return;
	const auto &b = t_.bind;
	const uint64_t n = niov_size_of(b.niov_shift);
	const uint64_t page = sc_.cfg.page_size();
	const auto &pol = sc_.cfg.policy;

	uint64_t total = 0;
	bool total_wraps = false;
	for (const auto &s : sc_.segs) {
		total_wraps |= total + s.len < total;
		total += s.len;
	}
	if (total_wraps || total != sc_.dmabuf_size)
		fail_with(Inv::bind_sg_covers_dmabuf, [&] { return
		     fmt::format("segments add up to {:#x}{}, dmabuf size is {:#x}", total,
				 total_wraps ? " (wrapped)" : "", sc_.dmabuf_size); });
	if (b.num_niovs != (sc_.dmabuf_size >> b.niov_shift) || b.num_niovs > UINT32_MAX)
		fail_with(Inv::bind_niov_count, [&] { return fmt::format("num_niovs {} for dmabuf size {:#x} and niov_shift {}",
						       b.num_niovs, sc_.dmabuf_size, b.niov_shift); });

	if (sc_.dir == Dir::tx) {
		const uint64_t cap = uint64_t{1} << pol.tx_niov_max_shift;
		if (n < page || n > cap || !W::is_pow2(n))
			fail_with(Inv::sizing_pow2_range, [&] { return fmt::format("TX niov size {} (niov_shift {})", n, b.niov_shift); });
		if (n == 0)
			return;
		if (sc_.dmabuf_size & (n - 1))
			fail_with(Inv::sizing_aligns_dmabuf, [&] { return
			     fmt::format("dmabuf size {:#x} not aligned to niov size {:#x}", sc_.dmabuf_size, n); });
		// Lengths always; with gen_pool-era PAGE_SIZE niovs nothing promised
		// aligned addresses.
		const bool addrs = pol.bind == BindStyle::freelist || n > page;
		for (size_t i = 0; i < sc_.segs.size(); ++i) {
			const auto &s = sc_.segs[i];
			if (((addrs ? s.addr : 0) | s.len) & (n - 1)) {
				fail_with(Inv::sizing_aligns_segments, [&] { return
				     fmt::format("segment {} ({:#x}, {:#x}) not aligned to niov size {:#x}", i,
						 s.addr, s.len, n); });
				break;
			}
		}
		if (pol.tx_niov != TxNiov::page) {
			const uint64_t decl = rules::tx_size_decl<W>(TxNiov::autosize, sc_.cfg.page_shift,
								     sc_.dmabuf_size, segs_.segs(), pol.tx_niov_max_shift);
			const uint64_t loop = rules::tx_size_loop<W>(TxNiov::autosize, sc_.cfg.page_shift,
								     sc_.dmabuf_size, segs_.segs(), pol.tx_niov_max_shift);
			if (loop != decl)
				fail_with(Inv::sizing_loop_matches_decl, [&] { return
				     fmt::format("halving loop gives {:#x}, declarative form {:#x}", loop, decl); });
			if (n < cap &&
			    rules::layout_aligned<W>(TxNiov::autosize, sc_.dmabuf_size, segs_.segs(), n << 1))
				fail_with(Inv::sizing_maximal, [&] { return
				     fmt::format("niov size {:#x} but {:#x} aligns the dmabuf and every segment", n,
						 n << 1); });
		}
	} else if (sc_.dir == Dir::rx) {
		if (sc_.rx_buf_size && n != *sc_.rx_buf_size)
			fail_with(Inv::rx_shift_matches_attr, [&] { return
			     fmt::format("rx-buf-size {} accepted with niov size {}", *sc_.rx_buf_size, n); });
		if (!sc_.rx_buf_size && n != page)
			fail_with(Inv::rx_shift_matches_attr, [&] { return fmt::format("no rx-buf-size but niov size {}", n); });
	} else {
		const uint32_t len = sc_.rx_buf_size.value_or(0);
		const uint64_t want = len ? len : page;
		if (n != want || (len && (!W::is_pow2(len) || len < page)) ||
		    b.niov_shift > zcrx_area_max_shift(sc_))
			fail_with(Inv::zcrx_rx_buf_len, [&] { return
			     fmt::format("rx_buf_len {} accepted with niov size {} (area max shift {})", len, n,
					 zcrx_area_max_shift(sc_)); });
	}
}

void Checker::after_queue_open() {
	// Only the memory provider's check: a page_pool with a memory provider
	// skips page_pool_init's MAX_PAGE_ORDER check (RULES.md step 7).
	const unsigned want = t_.bind.niov_shift - sc_.cfg.page_shift;
	if (t_.pp_order != want)
		fail_with(Inv::rx_pp_order, [&] { return fmt::format("page_pool order {} for niov_shift {} (PAGE_SHIFT {})",
						   t_.pp_order, t_.bind.niov_shift, sc_.cfg.page_shift); });
}

void Checker::probe(const Probe &p) {
	if (!opts_.check)
		return;
	const auto &l = p.lookup;
	if (p.virt >= sc_.dmabuf_size) {
		if (l.err != -kEFAULT)
			fail_with(Inv::lookup_index_in_table, [&] { return
			     fmt::format("offset {:#x} past the dmabuf ({:#x}) returned niov {} instead of NULL",
					 p.virt, sc_.dmabuf_size, l.idx); });
		return;
	}
	if (l.err) {
		fail_with(Inv::lookup_index_in_table, [&] { return
		     fmt::format("offset {:#x} inside the dmabuf returned {}", p.virt, errno_name(l.err)); });
		return;
	}
	const uint64_t n = niov_size_of(t_.bind.niov_shift);
	if (l.idx >= t_.bind.num_niovs)
		fail_with(Inv::lookup_index_in_table, [&] { return
		     fmt::format("offset {:#x}: niov index {} >= num_niovs {}", p.virt, l.idx, t_.bind.num_niovs); });
	if (l.size == 0 || l.off + l.size != n)
		fail_with(Inv::lookup_off_size, [&] { return
		     fmt::format("offset {:#x}: off {:#x} + size {:#x} != niov size {:#x}", p.virt, l.off,
				 l.size, n); });
	uint64_t want;
	if (!byte_map_at(p.virt, want))
		return;	 // past the segments: bind.sg_covers_dmabuf already said so
	const auto dma = l.idx < t_.bind.num_niovs ? impl_.niov_dma(l.idx) : std::nullopt;
	if (!dma || *dma + l.off != want)
		fail_with(Inv::lookup_byte_map, [&] { return
		     fmt::format("offset {:#x}: niov {} + off {:#x} is DMA {}, byte map says {:#x}", p.virt,
				 l.idx, l.off, dma ? fmt::format("{:#x}", *dma + l.off) : "none", want); });
}

void Checker::niov_table(const std::vector<std::pair<uint64_t, std::optional<uint64_t>>> &probes) {
	if (!opts_.check)
		return;
	// Not a structured binding: clang 14 cannot capture those in the lambda.
	for (const auto &probe : probes) {
		const uint64_t idx = probe.first;
		const std::optional<uint64_t> &dma = probe.second;
		uint64_t want;
		const bool mapped = byte_map_at(idx << t_.bind.niov_shift, want);
		if (!mapped)
			continue;
		if (!dma || *dma != want) {
			fail_with(Inv::bind_niov_dma, [&] { return
			     fmt::format("niov {} has DMA {}, byte map at offset {:#x} is {:#x}", idx,
					 dma ? fmt::format("{:#x}", *dma) : "none", idx << t_.bind.niov_shift, want); });
			return;
		}
	}
}

CutBy Checker::frag(const Frag &f, uint64_t virt, const FragLimits &lim) {
	const uint64_t n = niov_size_of(t_.bind.niov_shift);
	if (!opts_.check)
		return cut_by(f, n, lim);
	if (uint64_t{f.off} + f.len > n)
		fail_with(Inv::frag_within_niov, [&] { return
		     fmt::format("frag niov {} off {:#x} len {} crosses the niov end ({:#x})", f.niov, f.off,
				 f.len, n); });
	const uint64_t niov_rem = n - std::min<uint64_t>(f.off, n);
	if (f.len > niov_rem || f.len > lim.length || f.len > lim.iov_rem || f.len > lim.dev_max)
		fail_with(Inv::frag_limits, [&] { return
		     fmt::format("frag of {} bytes at offset {:#x}: niov remainder {}, length {}, iov "
				 "remainder {}, device max {}",
				 f.len, virt, niov_rem, lim.length, lim.iov_rem,
				 lim.dev_max == UINT64_MAX ? std::string("none") : std::to_string(lim.dev_max)); });
	if (f.len == 0 && lim.iov_rem != 0)
		fail_with(Inv::frag_progress, [&] { return
		     fmt::format("empty frag at offset {:#x} with {} bytes left in the element", virt,
				 lim.iov_rem); });
	if (f.niov >= t_.bind.num_niovs) {
		fail_with(Inv::lookup_index_in_table, [&] { return
		     fmt::format("frag at offset {:#x} names niov {} of {}", virt, f.niov, t_.bind.num_niovs); });
	} else {
		const auto run = segs_.byte_map_run(virt, f.len);
		const uint64_t want = run.dma;
		if (run.mapped) {
			const auto dma = impl_.niov_dma(f.niov);
			if (!dma || *dma + f.off != want)
				fail_with(Inv::lookup_byte_map, [&] { return
				     fmt::format("frag at offset {:#x}: niov {} + off {:#x} is DMA {}, byte map "
						 "says {:#x}",
						 virt, f.niov, f.off,
						 dma ? fmt::format("{:#x}", *dma + f.off) : "none", want); });
			else if (!run.linear)
				fail_with(Inv::frag_payload, [&] { return
				     fmt::format("frag at offset {:#x} len {}: DMA {:#x}.. does not hold those "
						 "dmabuf bytes",
						 virt, f.len, want); });
		}
	}
	const auto enc = impl_.encode_tx_desc(f.len, lens_);
	uint64_t sum = 0;
	for (uint32_t l : lens_)
		sum += l;
	if (enc && (*enc < 0 || sum != f.len))
		fail_with(Inv::dev_desc_len_exact, [&] { return
		     fmt::format("{} frag of {} bytes: {}", name(sc_.cfg.device), f.len,
				 *enc < 0 ? fmt::format("dropped ({})", errno_name(*enc))
					  : fmt::format("descriptors carry {} bytes", sum)); });
	return cut_by(f, n, lim);
}

CutBy Checker::cut_by(const Frag &f, uint64_t niov_size, const FragLimits &lim) const {
	if (!opts_.explain)
		return CutBy::none;
	const uint64_t niov_rem = niov_size - std::min<uint64_t>(f.off, niov_size);
	const uint64_t m = std::min({niov_rem, lim.length, lim.iov_rem, lim.dev_max});
	return m == lim.dev_max && lim.dev_max < niov_rem ? CutBy::device_max
	       : m == niov_rem				  ? CutBy::niov_end
	       : m == lim.iov_rem			  ? CutBy::iov_end
							  : CutBy::size_goal;
}

void Checker::skb(const Skb &s, SkbQueue::FragIt frags, bool fresh_from_send) {
	if (!opts_.check)
		return;
	uint64_t sum = 0;
	auto f = frags;
	for (uint32_t i = 0; i < s.nr_frags; ++i, ++f)
		sum += f->frag.len;
	if (sum != s.len)
		fail_with(Inv::frag_bytes_accounted, [&] { return
		     fmt::format("skb frags hold {} bytes, skb len {}", sum, s.len); });
	if (s.nr_frags > sc_.cfg.max_skb_frags)
		fail_with(Inv::frag_count, [&] { return fmt::format("skb has {} frags, MAX_SKB_FRAGS {}", s.nr_frags,
						  sc_.cfg.max_skb_frags); });
	if (fresh_from_send && s.len > sc_.cfg.size_goal)
		fail_with(Inv::skb_size_goal, [&] { return fmt::format("skb of {} bytes, size_goal {}", s.len, sc_.cfg.size_goal); });
	if (uint64_t{s.truesize} < uint64_t{s.len} + sc_.cfg.skb_head_truesize)
		fail_with(Inv::tcp_truesize_covers_bytes, [&] { return
		     fmt::format("skb truesize {} < head {} + len {}", s.truesize, sc_.cfg.skb_head_truesize,
				 s.len); });

	const Device dev = sc_.cfg.device;
	if (dev == Device::bnxt && s.nr_frags > kBnxtTxMaxFrags) {
		const bool gso = s.len > sc_.cfg.mss;
		if (sc_.cfg.policy.bnxt_frags == BnxtFrags::linearize || !gso)
			fail_with(Inv::dev_desc_count, [&] { return
			     fmt::format("bnxt skb with {} frags > TX_MAX_FRAGS {} must be linearized: dropped",
					 s.nr_frags, kBnxtTxMaxFrags); });
	}
	if (dev == Device::gve && s.len > 0)
		gve_segments(s, frags);
}

// Each GSO segment of mss bytes takes one header descriptor plus every data
// piece (device_encode_tx_desc's split) overlapping it; an skb within one
// mss is one segment.  Walked piece by piece: a segment no piece starts in
// holds one piece (2 descriptors), so only the segments pieces start in are
// counted, in order, and the first over the budget is reported.
void Checker::gve_segments(const Skb &s, SkbQueue::FragIt frags) {
	const uint64_t mss = s.len > sc_.cfg.mss ? sc_.cfg.mss : s.len;
	const uint64_t nseg = (uint64_t{s.len} + mss - 1) / mss;
	uint64_t pos = 0, seg = UINT64_MAX;
	uint64_t descs = 0;  // of segment seg
	auto over = [&] {
		if (seg == UINT64_MAX || descs <= kGveMaxDescsPerSeg)
			return false;
		fail_with(Inv::dev_desc_count, [&] { return
		     fmt::format("gve segment {} (bytes {}..) needs {} descriptors > {}", seg, seg * mss, descs,
				 kGveMaxDescsPerSeg); });
		return true;
	};
	for (uint32_t i = 0; i < s.nr_frags; ++i, ++frags) {
		device_encode_tx_desc(Device::gve, frags->frag.len, lens_);
		for (uint32_t piece : lens_) {
			const uint64_t first = pos / mss;
			pos += piece;
			if (first >= nseg)
				continue;
			const uint64_t last = std::min((pos - 1) / mss, nseg - 1);
			if (first != seg) {
				if (over())
					return;
				seg = first;
				descs = 1;  // the header
			}
			++descs;
			if (last != first) {  // the piece runs on into segment last
				if (over())
					return;
				seg = last;
				descs = 2;
			}
		}
	}
	over();
}

void Checker::socket(uint32_t wmem, uint64_t truesize_sum) {
	const int32_t q = static_cast<int32_t>(wmem);
	if (q < 0)
		fail_with(Inv::tcp_wmem_nonneg, [&] { return fmt::format("sk_wmem_queued {}", q); });
	if (q < 0 || static_cast<uint64_t>(q) != truesize_sum)
		fail_with(Inv::tcp_wmem_sum, [&] { return
		     fmt::format("sk_wmem_queued {} != sum of truesize {}", q, truesize_sum); });
}

void Checker::freed(uint32_t wmem) {
	if (wmem != 0)
		fail_with(Inv::tcp_freed_to_zero, [&] { return
		     fmt::format("sk_wmem_queued {} after freeing every skb", static_cast<int32_t>(wmem)); });
}

void Checker::rx_niov(const RxNiov &niov) {
	if (!opts_.check)
		return;
	// Judged first, worded only when reported: a kernel whose known bug
	// this is fails here on every niov of the sweep.
	enum class Bad { none, index, past_end, unaligned, byte_map, table } bad = Bad::none;
	const uint64_t n = niov_size_of(t_.bind.niov_shift);
	uint64_t want = 0;
	std::optional<uint64_t> table;
	if (niov.idx >= t_.bind.num_niovs)
		bad = Bad::index;
	else if (niov.virt >= sc_.dmabuf_size)
		bad = Bad::past_end;
	else if (n == 0 || (niov.virt & (n - 1)))
		bad = Bad::unaligned;
	else if (byte_map_at(niov.virt, want) && niov.dma != want)
		bad = Bad::byte_map;
	else if (table = impl_.niov_dma(niov.idx); !table || *table != niov.dma)
		bad = Bad::table;
	if (bad == Bad::none)
		return;
	fail_with(Inv::rx_alloc_byte_map, [&] {
		std::string why;
		switch (bad) {
		case Bad::index:
			why = fmt::format("index {} >= num_niovs {}", niov.idx, t_.bind.num_niovs);
			break;
		case Bad::past_end:
			why = fmt::format("dmabuf offset {:#x} past the dmabuf ({:#x})", niov.virt, sc_.dmabuf_size);
			break;
		case Bad::unaligned:
			why = fmt::format("dmabuf offset {:#x} not aligned to the niov size {:#x}", niov.virt, n);
			break;
		case Bad::byte_map:
			why = fmt::format("DMA {:#x}, the byte map at offset {:#x} is {:#x}", niov.dma, niov.virt, want);
			break;
		case Bad::table:
			why = fmt::format("DMA {:#x}, the niov table says {}", niov.dma,
					  table ? fmt::format("{:#x}", *table) : "none");
			break;
		case Bad::none:
			break;
		}
		return fmt::format("RX allocator handed out niov {} (offset {:#x}, DMA {:#x}): {}", niov.idx,
				   niov.virt, niov.dma, why);
	});
}

void Checker::rx_rounds(const RxAllocReport &rep) {
	if (!opts_.check)
		return;
	// The niovs bind created: an sg table shorter than the dmabuf leaves
	// the rest uncreated (bind.sg_covers_dmabuf says so).
	uint64_t made = 0;
	for (const auto &s : segs_.segs())
		made += std::min<uint64_t>(s.len >> t_.bind.niov_shift, t_.bind.num_niovs - made);
	const uint64_t n = made;
	const auto &first = rep.rounds[0];
	const auto dup = std::adjacent_find(rep.niovs.begin(), rep.niovs.end(),
					    [](const RxNiov &a, const RxNiov &b) { return a.idx == b.idx; });
	if (dup != rep.niovs.end())
		fail_with(Inv::rx_alloc_count, [&] {
			return fmt::format("the RX allocator handed out niov {} twice without a free", dup->idx);
		});
	else if (first.handed != n || !first.last_failed)
		fail_with(Inv::rx_alloc_count, [&] {
			return fmt::format("the RX allocator handed out {} of {} niovs in {} calls{}", first.handed, n,
					   t_.bind.num_niovs + 1,
					   first.last_failed ? "" : ", and the last call still succeeded");
		});
	else if (!rep.same_again)
		fail_with(Inv::rx_alloc_count, [&] {
			return fmt::format("after freeing all {} niovs the RX allocator handed out {} others", n,
					   rep.rounds[1].handed);
		});
}

std::vector<ResourceFinding> resource_findings(const niov_resources &b, const niov_resources &a) {
	std::string leak, refs, warn;
	auto add = [](std::string &out, const char *what, int64_t before, int64_t after) {
		if (before != after)
			out += fmt::format("{}{} {} -> {}", out.empty() ? "" : ", ", what, before, after);
	};
	add(leak, "allocations", b.allocs, a.allocs);
	add(leak, "allocated bytes", b.alloc_bytes, a.alloc_bytes);
	add(leak, "dma-buf references", b.dmabuf_refs, a.dmabuf_refs);
	add(leak, "DMA mappings", b.dma_mappings, a.dma_mappings);
	add(refs, "niov references", b.niov_refs, a.niov_refs);
	add(refs, "binding references", b.binding_refs, a.binding_refs);
	if (a.warns > b.warns)
		add(warn, "WARNs", b.warns, a.warns);
	if (a.bugs > b.bugs)
		add(warn, "BUGs", b.bugs, a.bugs);
	std::vector<ResourceFinding> out;
	if (!leak.empty())
		out.push_back({Inv::res_no_leak, "after the unbind: " + leak});
	if (!refs.empty())
		out.push_back({Inv::res_refs_balanced, "after every frag went back and the unbind: " + refs});
	if (!warn.empty())
		out.push_back({Inv::res_no_warn, "during the run: " + warn});
	return out;
}

void Checker::resources(const niov_resources &b, const niov_resources &a) {
	for (auto &f : resource_findings(b, a))
		fail(f.inv, std::move(f.detail));
}

}  // namespace niov
