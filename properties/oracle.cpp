#include "oracle.hpp"

#include <algorithm>
#include <bit>

#include "errno.hpp"

namespace niov::props::oracle {

namespace {

using u128 = unsigned __int128;

bool pow2(uint64_t v) { return v != 0 && std::popcount(v) == 1; }

unsigned log2(uint64_t pow2_value) { return static_cast<unsigned>(std::bit_width(pow2_value) - 1); }

}  // namespace

bool divides_all(TxNiov mode, uint64_t n, uint64_t dmabuf_size, const std::vector<DmaSeg> &segs) {
	if (dmabuf_size % n)
		return false;
	for (const auto &s : segs) {
		if (s.len % n)
			return false;
		if (mode != TxNiov::autosize_noaddr && s.addr % n)
			return false;
	}
	return true;
}

uint64_t tx_niov_size(TxNiov mode, unsigned page_shift, uint64_t dmabuf_size,
		      const std::vector<DmaSeg> &segs, unsigned max_shift) {
	const uint64_t page = uint64_t{1} << page_shift;
	for (uint64_t n = uint64_t{1} << max_shift; n > page; n /= 2)
		if (divides_all(mode, n, dmabuf_size, segs))
			return n;
	return page;
}

unsigned area_max_shift(const std::vector<DmaSeg> &segs) {
	unsigned best = 63;
	for (const auto &s : segs)
		if (s.len)
			best = std::min(best, static_cast<unsigned>(std::countr_zero(s.len)));
	return best;
}

Bind bind(const Scenario &sc) {
	const Config &cfg = sc.cfg;
	const unsigned ps = cfg.page_shift;
	const uint64_t page = uint64_t{1} << ps;
	Bind b;
	// Step 0: 6.12 has neither bind-tx nor io_uring zcrx.
	if (cfg.policy.paths == Paths::rx && sc.dir != Dir::rx)
		return {sc.dir == Dir::tx ? -kEOPNOTSUPP : -kEINVAL, 0, 0};
	if (sc.dir == Dir::zcrx) {
		const uint32_t len = sc.rx_buf_size.value_or(0);
		if (len && (!pow2(len) || len < page))
			b.err = -kEINVAL;
		else if ((len ? log2(len) : ps) > area_max_shift(sc.segs))
			b.err = -kERANGE;
		else if (!sc.zcrx_device && (len ? log2(len) : ps) != ps)
			b.err = -kEOPNOTSUPP;
		if (b.err)
			return b;
		b.shift = len ? log2(len) : ps;
		// The area's niov array is one allocation, limited as the devmem table.
		if ((sc.dmabuf_size >> b.shift) > kMaxNiovTable) {
			b.err = -kENOMEM;
			b.shift = 0;
			return b;
		}
		b.num_niovs = sc.dmabuf_size >> b.shift;
		return b;
	}
	const auto &pol = cfg.policy;
	// Step 1: the attribute.
	if (sc.rx_buf_size) {
		if (pol.rx_attr == RxAttr::absent || sc.dir == Dir::tx)
			return {-kEINVAL, 0, 0};
		const uint32_t v = *sc.rx_buf_size;
		if (!pow2(v) || v < page)
			return {-kEINVAL, 0, 0};
	}
	// Step 2: the size.
	uint64_t n = page;
	if (sc.dir == Dir::rx && sc.rx_buf_size)
		n = *sc.rx_buf_size;
	else if (sc.dir == Dir::tx && pol.tx_niov != TxNiov::page)
		n = tx_niov_size(pol.tx_niov, ps, sc.dmabuf_size, sc.segs, pol.tx_niov_max_shift);
	const unsigned shift = log2(n);
	const bool freelist = pol.bind == BindStyle::freelist;
	const bool unchecked = pol.bind == BindStyle::genpool_unchecked;
	// Steps 3-6, first failure wins.
	if ((freelist || (sc.dir == Dir::tx && !unchecked)) && sc.dmabuf_size % n)
		return {-kEINVAL, 0, 0};
	// A gen_pool bind gives each sg entry floor(len / n) niovs (whole ones
	// since the May 2026 fix); only the freelist bind and the fixed TX bind
	// (tx_vec) count from the dmabuf size.
	u128 count = sc.dmabuf_size / n;
	if (unchecked || (!freelist && sc.dir == Dir::rx)) {
		count = 0;
		for (const auto &s : sc.segs)
			count += s.len / n;
	}
	if (freelist && count > UINT32_MAX)
		return {-kE2BIG, 0, 0};
	if (count > (uint64_t{1} << 24))
		return {-kENOMEM, 0, 0};
	for (const auto &s : sc.segs)
		if (!unchecked && (s.len % n || (freelist && s.addr % n)))
			return {-kEINVAL, 0, 0};
	return {0, shift, static_cast<uint64_t>(count)};
}

Queue rx_queue(const Scenario &sc, unsigned shift) {
	const Config &cfg = sc.cfg;
	const unsigned ps = cfg.page_shift;
	const uint64_t rx_page_size = shift != ps ? uint64_t{1} << shift : 0;
	Queue q;
	q.order = sc.pp_order ? *sc.pp_order : (shift > ps ? shift - ps : 0);
	const Device d = cfg.device;
	const bool supports = d == Device::none || d == Device::mlx5 || d == Device::bnxt;
	if (!supports) {
		if (rx_page_size)
			q.err = -kEOPNOTSUPP;
	} else if (rx_page_size) {
		const uint64_t lo = d == Device::bnxt ? uint64_t{1} << std::min(ps, 15u) : uint64_t{1} << ps;
		const uint64_t hi = d == Device::bnxt ? uint64_t{32768} : uint64_t{1} << (ps + cfg.max_page_order);
		if (rx_page_size < lo || rx_page_size > hi)
			q.err = -kERANGE;
	}
	if (!q.err && q.order + ps != shift)
		q.err = -kE2BIG;
	return q;
}

std::optional<uint64_t> byte_map(const std::vector<DmaSeg> &segs, uint64_t virt) {
	u128 start = 0;
	for (const auto &s : segs) {
		if (virt >= start && virt < start + s.len)
			return s.addr + static_cast<uint64_t>(virt - start);
		start += s.len;
	}
	return std::nullopt;
}

std::optional<uint64_t> niov_dma(const std::vector<DmaSeg> &segs, unsigned shift,
				 uint64_t num_niovs, uint64_t idx) {
	if (idx >= num_niovs)
		return std::nullopt;
	u128 first = 0;
	for (const auto &s : segs) {
		const uint64_t cnt = s.len >> shift;
		if (idx >= first && idx < first + cnt)
			return s.addr + (static_cast<uint64_t>(idx - first) << shift);
		first += cnt;
	}
	return std::nullopt;
}

Memory::Memory(const std::vector<DmaSeg> &segs) {
	u128 start = 0;
	for (const auto &s : segs) {
		if (s.len)
			spans_.push_back({s.addr, u128{s.addr} + s.len, start});
		start += s.len;
	}
	std::stable_sort(spans_.begin(), spans_.end(),
			 [](const Span &a, const Span &b) { return a.addr < b.addr; });
	for (size_t i = 1; i < spans_.size(); ++i)
		overlaps_ |= spans_[i].addr < spans_[i - 1].end;
	// Overlaps are resolved by scanning every span; fine for small tables.
	usable_ = !overlaps_ || spans_.size() <= 64;
}

std::optional<Memory::Read> Memory::at(uint64_t dma) const {
	if (!overlaps_) {
		auto it = std::upper_bound(spans_.begin(), spans_.end(), u128{dma},
					   [](u128 d, const Span &s) { return d < s.addr; });
		if (it == spans_.begin())
			return std::nullopt;
		--it;
		if (dma >= it->end)
			return std::nullopt;
		const u128 off = it->start + (dma - it->addr);
		if (off > UINT64_MAX)
			return std::nullopt;
		return Read{static_cast<uint64_t>(off), static_cast<uint64_t>(it->end - dma)};
	}
	// The last write wins: the span with the largest dmabuf offset here.
	const Span *best = nullptr;
	unsigned hits = 0;
	for (const auto &s : spans_) {
		if (dma >= s.addr && dma < s.end) {
			++hits;
			if (!best || s.start > best->start)
				best = &s;
		}
	}
	if (!best)
		return std::nullopt;
	// The run ends where this span ends or another span begins.
	u128 end = best->end;
	for (const auto &s : spans_) {
		if (s.addr > dma && s.addr < end)
			end = s.addr;
		if (dma >= s.addr && dma < s.end && s.end < end)
			end = s.end;  // past it, fewer offsets share the address
	}
	const u128 off = best->start + (dma - best->addr);
	if (off > UINT64_MAX)
		return std::nullopt;
	return Read{static_cast<uint64_t>(off), static_cast<uint64_t>(end - dma), hits > 1};
}

Iov effective_iov(const Op &send, const Config &cfg) {
	Iov r;
	if (send.iov.size() > 1024) {
		r.err = -kEINVAL;
		return r;
	}
	const uint64_t cap = static_cast<uint64_t>(INT32_MAX) & ~(cfg.page_size() - 1);
	uint64_t total = 0;
	for (auto e : send.iov) {
		if (e.len >> 63) {
			r.err = -kEINVAL;
			return r;
		}
		e.len = std::min(e.len, cap - total);
		total += e.len;
		r.elems.push_back(e);
	}
	r.total = send.length ? std::min(total, *send.length) : total;
	while (r.leading_empty < r.elems.size() && r.elems[r.leading_empty].len == 0)
		++r.leading_empty;
	return r;
}

StreamAt stream_at(const Iov &iov, uint64_t pos) {
	uint64_t start = 0;
	for (const auto &e : iov.elems) {
		if (pos < start + e.len)
			return {e.base + (pos - start), start + e.len - pos};
		start += e.len;
	}
	return {};
}

std::optional<std::vector<uint32_t>> tx_descs(Device dev, uint32_t frag_len) {
	switch (dev) {
	case Device::gve: {
		std::vector<uint32_t> v;  // ceil(len / 16383): none for an empty frag
		for (uint32_t left = frag_len; left != 0;) {
			const uint32_t piece = std::min<uint32_t>(left, 16383);
			v.push_back(piece);
			left -= piece;
		}
		return v;
	}
	case Device::fbnic:
		if (frag_len > 65535)
			return std::nullopt;
		return std::vector<uint32_t>{frag_len};
	case Device::bnxt:
		return std::vector<uint32_t>{frag_len % 65536};
	case Device::none:
	case Device::mlx5:
		break;
	}
	return std::vector<uint32_t>{frag_len};
}

uint64_t tx_max_frag(const Config &cfg) {
	if (cfg.policy.max_frag != MaxFrag::device)
		return UINT64_MAX;
	if (cfg.tx_max_frag_size)
		return *cfg.tx_max_frag_size;
	return cfg.device == Device::bnxt ? 32768 : UINT32_MAX;
}

unsigned lookup_shift(const Config &cfg, unsigned niov_shift) {
	return cfg.policy.lookup == Lookup::page ? cfg.page_shift : niov_shift;
}

}  // namespace niov::props::oracle

namespace niov::props::oracle {

std::optional<uint64_t> niov_virt(const Scenario &sc, unsigned shift, uint64_t num_niovs, uint64_t idx) {
	if (idx >= num_niovs)
		return std::nullopt;
	if (sc.cfg.policy.bind == BindStyle::freelist)
		return idx << shift;
	unsigned __int128 first = 0, start = 0;
	for (const auto &s : sc.segs) {
		const uint64_t cnt = s.len >> shift;
		if (idx >= first && idx < first + cnt)
			return static_cast<uint64_t>(start + ((idx - first) << shift));
		first += cnt;
		start += s.len;
	}
	return std::nullopt;
}

uint64_t rx_alloc_handed(const Scenario &sc, unsigned shift, uint64_t num_niovs) {
	uint64_t lost = 0;
	unsigned __int128 first = 0;
	for (const auto &s : sc.segs) {
		// gen_pool: a niov at DMA address 0, where the entry starts or wraps to.
		const uint64_t cnt = s.len >> shift;
		const u128 to_zero = s.addr == 0 ? 0 : (u128{1} << 64) - s.addr;
		const u128 j = to_zero >> shift;
		if (sc.cfg.policy.bind != BindStyle::freelist && to_zero % (u128{1} << shift) == 0 && j < cnt &&
		    first + j < num_niovs)
			++lost;
		first += s.len >> shift;
	}
	// Niovs past the sg table are never created.
	const uint64_t made = first < num_niovs ? static_cast<uint64_t>(first) : num_niovs;
	return made - lost;
}

}  // namespace niov::props::oracle
