// The reference model answering as an Impl: the generic rules instantiated
// with concrete words.
#include <bit>
#include <fmt/format.h>

#include "explain.hpp"
#include "impl.hpp"
#include "segs.hpp"

namespace niov {

namespace {

using W = Concrete;

int as_errno(uint32_t err_word) { return static_cast<int32_t>(err_word); }

// Name what stopped the TX size from growing: the first of the dmabuf size or
// a segment whose lowest set bit is the chosen size.
std::string explain_tx_size(const Scenario &sc, uint64_t n) {
	const uint64_t page = sc.cfg.page_size();
	if (sc.cfg.policy.tx_niov == TxNiov::page)
		return fmt::format("TX niov size {} = PAGE_SIZE (policy tx_niov=page)", n);
	if (n == uint64_t{1} << sc.cfg.policy.tx_niov_max_shift)
		return fmt::format("TX niov size {}: the largest allowed (policy tx_niov_max), every segment aligned", n);
	const bool addrs = sc.cfg.policy.tx_niov != TxNiov::autosize_noaddr;
	auto limits = [&](uint64_t v) { return v != 0 && std::countr_zero(v) < std::countr_zero(n << 1); };
	if (limits(sc.dmabuf_size))
		return fmt::format("TX niov size {}: dmabuf size {:#x} is not {}-aligned", n,
				   sc.dmabuf_size, n << 1);
	for (size_t i = 0; i < sc.segs.size(); ++i) {
		const auto &s = sc.segs[i];
		if (addrs && limits(s.addr))
			return fmt::format("TX niov size {}: segment {} address {:#x} is not {}-aligned",
					   n, i, s.addr, n << 1);
		if (limits(s.len))
			return fmt::format("TX niov size {}: segment {} length {:#x} is not {}-aligned",
					   n, i, s.len, n << 1);
	}
	return fmt::format("TX niov size {} = PAGE_SIZE {} (nothing aligned further)", n, page);
}

// The gen_pool bind before the May 2026 fix takes sg entries that are not
// whole niovs and drops their tail: say which.
std::string explain_truncation(const Scenario &sc, unsigned shift) {
	if (sc.cfg.policy.bind != BindStyle::genpool_unchecked)
		return {};
	const uint64_t n = uint64_t{1} << shift;
	std::string out;
	if (sc.dmabuf_size & (n - 1))
		out += fmt::format("; dmabuf size {:#x} is not a multiple of {:#x} and is not checked", sc.dmabuf_size, n);
	for (size_t i = 0; i < sc.segs.size(); ++i)
		if (sc.segs[i].len & (n - 1)) {
			out += fmt::format("; sg entry {} ({:#x} bytes) gives {} niovs, its last {:#x} bytes are dropped "
					   "and the niovs after it sit at offsets that are not multiples of {:#x} "
					   "(no sg length check before the May 2026 fix)",
					   i, sc.segs[i].len, sc.segs[i].len >> shift, sc.segs[i].len & (n - 1), n);
			break;
		}
	return out;
}

}  // namespace

BindResult ModelImpl::bind(const Scenario &sc) {
	sc_ = &sc;
	const auto &cfg = sc.cfg;
	const unsigned psh = cfg.page_shift;
	segs_ = SegIndex();
	auto segs = concrete_segs(sc);	// a StashedVector: refused or not, back to the stash
	BindResult r;
	// The explanation is worded when asked for (explanation()): most runs
	// never read it, and wording it was a tenth of a fuzz bind.
	auto stop = [&](Stage st, int err) {
		stage_ = st;
		err_ = r.err = err;
		return r;
	};

	if (const int e = rules::path_errno(cfg.policy, sc.dir))
		return stop(Stage::no_path, e);
	if (sc.dir == Dir::zcrx) {
		const uint32_t len = sc.rx_buf_size.value_or(0);
		if (const int e = *zcrx_validate(sc, len, zcrx_area_max_shift(sc)))
			return stop(Stage::zcrx_len, e);
		shift_ = static_cast<unsigned>(rules::zcrx_niov_shift<W>(psh, len));
		if (const int e = zcrx_area_errno(sc.dmabuf_size, shift_))
			return stop(Stage::zcrx_area, e);
	} else {
		const bool present = sc.rx_buf_size.has_value();
		if (const int e = as_errno(rules::rx_attr_errno<W>(cfg.policy, sc.dir, psh, present,
								   sc.rx_buf_size.value_or(0))))
			return stop(Stage::rx_attr, e);
		if (sc.dir == Dir::rx)
			shift_ = static_cast<unsigned>(
				rules::rx_niov_shift<W>(psh, present, sc.rx_buf_size.value_or(0)));
		else
			shift_ = static_cast<unsigned>(rules::tx_niov_shift<W>(
				cfg.policy, psh, sc.dmabuf_size, std::span<const CSeg>(segs)));
		if (const int e = as_errno(rules::bind_errno<W>(cfg.policy, sc.dir, sc.dmabuf_size, segs, shift_)))
			return stop(Stage::bind, e);
	}
	stop(Stage::bound, 0);
	r.niov_shift = shift_;
	r.num_niovs = num_niovs_ =
		sc.dir == Dir::zcrx ? sc.dmabuf_size >> shift_
				    : rules::num_niovs<W>(cfg.policy, sc.dir, sc.dmabuf_size, std::span<const CSeg>(segs), shift_);
	// Only an RX binding allocates buffers (rx_alloc): the others leave the
	// allocator without a copy of the table.
	rx_.reset(cfg.policy, sc.dir == Dir::rx ? std::span<const CSeg>(segs) : std::span<const CSeg>(), shift_,
		  num_niovs_);
	segs_ = SegIndex(std::move(segs), shift_);
	return r;
}

std::string ModelImpl::explanation() const {
	if (!sc_)
		return {};
	const Scenario &sc = *sc_;
	const auto &cfg = sc.cfg;
	switch (stage_) {
	case Stage::no_path:
		return fmt::format("this kernel has no {} (policy paths={}): {}",
				   sc.dir == Dir::tx ? "bind-tx netlink command" : "io_uring zcrx registration",
				   cfg.policy.paths == Paths::rx ? "rx" : "all", errno_name(err_));
	case Stage::zcrx_len:
		return "zcrx rx_buf_len rejected: " + zcrx_failure_reason(sc, sc.rx_buf_size.value_or(0), err_);
	case Stage::zcrx_area:
		return fmt::format("zcrx area of {:#x} bytes needs {} niovs: allocating them fails", sc.dmabuf_size,
				   sc.dmabuf_size >> shift_);
	case Stage::rx_attr:
		return fmt::format("rx-buf-size attribute {} rejected (must be a power of two "
				   ">= PAGE_SIZE {} on bind-rx{})",
				   sc.rx_buf_size.value_or(0), cfg.page_size(),
				   cfg.policy.rx_attr == RxAttr::absent ? "; this kernel has no such attribute" : "");
	case Stage::bind:
	case Stage::bound:
		break;
	}
	if (sc.dir == Dir::zcrx)
		return {};
	std::string out = sc.dir == Dir::rx
				  ? fmt::format("RX niov size {}{}", uint64_t{1} << shift_,
						sc.rx_buf_size ? " from rx-buf-size" : " = PAGE_SIZE (no rx-buf-size)")
				  : explain_tx_size(sc, uint64_t{1} << shift_);
	if (stage_ == Stage::bind)
		return out + "; bind fails " + bind_failure_reason(sc, shift_, err_);
	return out + explain_truncation(sc, shift_);
}

std::optional<int> ModelImpl::pp_init(unsigned order) {
	return pp_order_check(shift_, sc_->cfg.page_shift, order);
}

std::optional<int> ModelImpl::zcrx_validate(const Scenario &sc, uint32_t len,
					    unsigned area_max_shift) {
	return as_errno(rules::zcrx_errno<W>(sc.cfg.page_shift, len, area_max_shift, sc.zcrx_device));
}

int pp_order_check(unsigned niov_shift, unsigned page_shift, unsigned order) {
	return as_errno(rules::pp_order_errno<W>(page_shift, niov_shift, order));
}

int zcrx_area_errno(uint64_t area_size, unsigned niov_shift) {
	// io_uring allocates the area's niov array in one go, like the devmem
	// table: past the model's allocation limit it fails.
	return (area_size >> niov_shift) > kMaxNiovTable ? -kENOMEM : 0;
}

unsigned zcrx_area_max_shift(const Scenario &sc) {
	unsigned shift = 63;
	for (const auto &s : sc.segs)
		if (s.len != 0 && static_cast<unsigned>(std::countr_zero(s.len)) < shift)
			shift = static_cast<unsigned>(std::countr_zero(s.len));
	return shift;
}

}  // namespace niov
