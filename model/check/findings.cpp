#include "findings.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace niov {

bool exporter_lies(const Scenario &sc) {
	uint64_t total = 0;
	for (const auto &s : sc.segs) {
		if (total + s.len < total)
			return true;
		total += s.len;
	}
	return total != sc.dmabuf_size;
}

bool unchecked_layout(const Scenario &sc) {
	if (sc.cfg.policy.bind != BindStyle::genpool_unchecked)
		return false;
	const uint64_t page_mask = sc.cfg.page_size() - 1;
	bool odd = sc.dir == Dir::tx && (sc.dmabuf_size & page_mask);
	for (const auto &s : sc.segs)
		odd |= (s.len & page_mask) != 0;
	return odd;
}

bool niov_at_dma_zero(const DmaSeg &s, unsigned shift) {
	const uint64_t to_zero = 0 - s.addr;  // bytes from the segment start to address 0 (wrapping)
	return (to_zero & ((uint64_t{1} << shift) - 1)) == 0 && (to_zero >> shift) < (s.len >> shift);
}

bool genpool_zero_address(const Scenario &sc) {
	if (sc.dir != Dir::rx || sc.cfg.policy.bind == BindStyle::freelist)
		return false;
	for (const auto &s : sc.segs)
		if (niov_at_dma_zero(s, sc.cfg.page_shift))
			return true;
	return false;
}

bool genpool_frees_astray(const Scenario &sc) {
	if (sc.dir != Dir::rx || sc.cfg.policy.bind == BindStyle::freelist)
		return false;
	std::vector<std::pair<uint64_t, uint64_t>> spans;  // [addr, last byte]
	for (const auto &s : sc.segs) {
		// Empty at DMA 0: gen_pool's end_addr wraps to U64_MAX, a chunk
		// that claims every address.
		if (!s.len) {
			if (!s.addr)
				return true;
			continue;
		}
		const uint64_t last = s.addr + (s.len - 1);
		if (last < s.addr)
			return true;
		spans.emplace_back(s.addr, last);
	}
	std::sort(spans.begin(), spans.end());
	for (size_t i = 1; i < spans.size(); ++i)
		if (spans[i].first <= spans[i - 1].second)
			return true;
	return false;
}

bool policies_overridden(const Scenario &sc) {
	return !sc.cfg.rules_declared && !(sc.cfg.policy == preset_policies(sc.cfg.preset));
}

bool is_known_finding(const Scenario &sc, Inv inv) {
	if (policies_overridden(sc))
		return true;
	// A lying exporter: the kernel trusts it; the freelist bind WARNs at
	// unbind that the niovs it never created are outstanding.
	if (inv == Inv::bind_sg_covers_dmabuf || inv == Inv::res_no_warn)
		if (exporter_lies(sc))
			return true;
	// 6.12 and the TX era before the May 2026 fix: what the unchecked
	// gen_pool bind makes of a dmabuf or sg entries that are not whole pages;
	// and any gen_pool bind of a table that does not add up (it counts the
	// niovs from the entries).
	if (unchecked_layout(sc) || (sc.cfg.policy.bind != BindStyle::freelist && exporter_lies(sc))) {
		switch (inv) {
		case Inv::bind_niov_count:
		case Inv::bind_niov_dma:
		case Inv::sizing_aligns_dmabuf:
		case Inv::sizing_aligns_segments:
		case Inv::lookup_index_in_table:
		case Inv::lookup_byte_map:
		case Inv::frag_payload:
		case Inv::rx_alloc_byte_map:
			return true;
		default:
			break;
		}
	}
	// gen_pool hands out an address, 0 meaning none: the niov at DMA 0 is
	// taken and lost, and the pool cannot be destroyed at unbind (WARN, the
	// pool leaks).
	if ((genpool_zero_address(sc) || genpool_frees_astray(sc)) &&
	    (inv == Inv::rx_alloc_count || inv == Inv::res_no_warn || inv == Inv::res_no_leak))
		return true;
	// Devices: fbnic drops frags past 64 KiB whatever the rules; bnxt's
	// 16-bit BD wraps unless the series' 32 KiB cap (or a cap a scenario set
	// below 64 KiB) applies; descriptor budgets (gve per segment, bnxt
	// TX_MAX_FRAGS) depend on how the application chunks its sends.
	const Device dev = sc.cfg.device;
	if (inv == Inv::dev_desc_len_exact)
		return dev == Device::fbnic ||
		       (dev == Device::bnxt && (sc.cfg.policy.max_frag == MaxFrag::none ||
						sc.cfg.device_tx_max_frag() > 0xffff));
	if (inv == Inv::dev_desc_count)
		return dev == Device::gve || dev == Device::bnxt;
	return false;
}

bool is_known_finding(const Scenario &sc, std::string_view invariant_id) {
	for (const auto &i : kInvariants)
		if (i.id == invariant_id)
			return is_known_finding(sc, i.inv);
	return false;
}

}  // namespace niov
