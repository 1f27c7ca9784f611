#include "explain.hpp"

#include <bit>

#include <fmt/format.h>

#include "errno.hpp"
#include "impl.hpp"

namespace niov {

namespace {

std::string size_text(uint64_t v) {
	if (v && v % (1u << 20) == 0)
		return fmt::format("{} MiB", v >> 20);
	if (v && v % 1024 == 0)
		return fmt::format("{} KiB", v >> 10);
	return fmt::format("{:#x}", v);
}

bool aligned(uint64_t x, uint64_t n) { return (x & (n - 1)) == 0; }

}  // namespace

std::string bind_failure_reason(const Scenario &sc, unsigned shift, int err) {
	const uint64_t n = uint64_t{1} << shift;
	const bool freelist = sc.cfg.policy.bind == BindStyle::freelist;
	const std::string e(errno_name(err));
	if ((freelist || sc.dir == Dir::tx) && !aligned(sc.dmabuf_size, n))
		return fmt::format("{}: dmabuf size {:#x} is not a multiple of the niov size {}", e, sc.dmabuf_size,
				   size_text(n));
	const uint64_t count = sc.dmabuf_size >> shift;
	if (freelist && count > UINT32_MAX)
		return fmt::format("{}: {} niovs of {} is more than U32_MAX", e, count, size_text(n));
	if (count > kMaxNiovTable)
		return fmt::format("{}: a table of {} niovs is past the allocation limit ({})", e, count, kMaxNiovTable);
	for (size_t i = 0; i < sc.segs.size(); ++i) {
		const auto &s = sc.segs[i];
		if (!aligned(s.len, n))
			return fmt::format("{}: segment {} length {:#x} is not a multiple of the niov size {}", e, i, s.len,
					   size_text(n));
		if (freelist && !aligned(s.addr, n))
			return fmt::format("{}: segment {} address {:#x} is not {}-aligned", e, i, s.addr, size_text(n));
	}
	return e;
}

std::string zcrx_failure_reason(const Scenario &sc, uint32_t len, int err) {
	const uint64_t page = sc.cfg.page_size();
	const std::string e(errno_name(err));
	if (len && (!std::has_single_bit(len) || len < page))
		return fmt::format("{}: rx_buf_len {} is not a power of two >= PAGE_SIZE {}", e, len, page);
	const unsigned shift = len ? static_cast<unsigned>(std::countr_zero(len)) : sc.cfg.page_shift;
	const unsigned area = zcrx_area_max_shift(sc);
	if (shift > area) {
		for (size_t i = 0; i < sc.segs.size(); ++i)
			if (sc.segs[i].len && static_cast<unsigned>(std::countr_zero(sc.segs[i].len)) == area)
				return fmt::format("{}: niovs of {} need every area segment {}-aligned; segment {} length {:#x} "
						   "is only {}-aligned",
						   e, size_text(uint64_t{1} << shift), size_text(uint64_t{1} << shift), i,
						   sc.segs[i].len, size_text(uint64_t{1} << area));
		return fmt::format("{}: niovs of {} are larger than the area's alignment", e, size_text(uint64_t{1} << shift));
	}
	if (!sc.zcrx_device && shift != sc.cfg.page_shift)
		return fmt::format("{}: no device behind the ifq, so only PAGE_SIZE niovs ({})", e, size_text(page));
	return e;
}

std::string queue_failure_reason(const Scenario &sc, unsigned shift, unsigned order, int err) {
	const Config &c = sc.cfg;
	const uint64_t rx_page_size = shift != c.page_shift ? uint64_t{1} << shift : 0;
	const std::string e(errno_name(err)), dev(name(c.device));
	const bool supports = c.device == Device::none || c.device == Device::mlx5 || c.device == Device::bnxt;
	if (err == -kEOPNOTSUPP && !supports)
		return fmt::format("{}: device {} has no RX buffer size support, and niovs of {} need it", e, dev,
				   size_text(rx_page_size));
	if (err == -kERANGE) {
		const uint64_t lo = c.device == Device::bnxt ? uint64_t{1} << std::min(c.page_shift, 15u) : c.page_size();
		const uint64_t hi = c.device == Device::bnxt ? uint64_t{1} << 15 : c.page_size() << c.max_page_order;
		return fmt::format("{}: device {} takes RX buffers of {} to {}; {} is outside", e, dev, size_text(lo),
				   size_text(hi), size_text(rx_page_size));
	}
	if (err == -kE2BIG)
		return fmt::format("{}: page_pool order {}, but niovs of {} need order {} (niov_shift - PAGE_SHIFT)", e,
				   order, size_text(uint64_t{1} << shift), shift - c.page_shift);
	return fmt::format("{} (device {}, page_pool order {})", e, dev, order);
}

}  // namespace niov
