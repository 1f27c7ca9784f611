// rx.*: bind-rx with the rx-buf-size attribute and opening the queue
// (RULES.md bind steps 1, 3-7), composed as ModelImpl::bind and
// trace.cpp's open_rx_queue compose them: attribute, shift, bind checks,
// the device's buffer-size support, then the driver's page_pool order.
//
// One symbolic segment: more segments only add ways for the bind to fail,
// and no goal reads them.  MAX_PAGE_ORDER and the driver's order are
// symbolic.
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

// The scenario format's range.  Below 3, bnxt's 32 KiB buffers (order 3 on
// 4 KiB pages) exceed MAX_PAGE_ORDER, and the queue still opens: memory-
// provider pools skip page_pool_init's MAX_PAGE_ORDER check (RULES.md step 7).
constexpr uint64_t kMinMaxPageOrder = 0;
constexpr uint64_t kMaxMaxPageOrder = 20;

Dom value_dom(unsigned ps) {
	const uint64_t p = uint64_t{1} << ps;
	return Dom::list({0, 1, p / 2, p, p + 1, 2 * p, 3 * p, 1 << 15, 1 << 16, 1 << 20, 1 << 21, 1 << 22,
			  1u << 31, 0xffffffff, 4 * p, 8 * p});
}

template <class W>
struct RxInputs {
	typename W::boolean present;
	typename W::u32 value;
	typename W::u64 size;
	std::vector<rules::Seg<W>> segs;
	typename W::u64 max_page_order;
	typename W::u64 shift;
	typename W::u32 attr_err;
	typename W::u32 bind_err;
	typename W::u32 dev_err;  // the device side, checked with the order the binding expects
};

template <class W>
RxInputs<W> inputs(const Point &p, In<W> &in, Claim<W> &c) {
	const uint64_t ps = uint64_t{1} << p.page_shift;
	auto present = in.flag("has_rx_buf_size", Dom::list({0, 1}));
	auto value = in.u32("rx_buf_size", value_dom(p.page_shift));
	auto size = in.u64("dmabuf_size", Dom::list({0, ps, 1 << 16, 1 << 21, (1 << 22) + ps, uint64_t{1} << 32,
						    uint64_t{3} << 20, uint64_t{1} << 45}));
	auto segs = seg_table<W>(in, 1, Dom::list({0, ps, 1 << 16, 1 << 21}),
				 Dom::list({0, ps, 1 << 16, uint64_t{3} << 20}));
	auto mpo = in.u64("max_page_order", Dom::list({0, 2, 3, 4, 10, 20}));
	c.assume(W::uge(mpo, W::k64(kMinMaxPageOrder)) && W::ule(mpo, W::k64(kMaxMaxPageOrder)));
	const auto shift = rules::rx_niov_shift<W>(p.page_shift, present, value);
	const auto attr = rules::rx_attr_errno<W>(p.pol, Dir::rx, p.page_shift, present, value);
	const auto bind = rules::bind_errno<W>(p.pol, Dir::rx, size, span_of(segs), shift);
	const auto dev = rules::rx_queue_errno<W>(p.dev, p.page_shift, mpo, shift, shift - W::k64(p.page_shift));
	return {present, value, size, segs, mpo, shift, attr, bind, dev};
}

template <class W>
Claim<W> shift_matches_attr(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c);
	c.assume(s.attr_err == W::k32(0) && s.bind_err == W::k32(0));
	c.prove(!s.present || W::shl(W::k64(1), s.shift) == W::zext(s.value));
	c.prove(s.present || s.shift == W::k64(p.page_shift));
	return c;
}

// Any order the driver passes (the scenario's pp_order or the default).
template <class W>
Claim<W> pp_order(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c);
	auto order = in.u64("pp_order", Dom::upto(8));
	c.assume(s.attr_err == W::k32(0) && s.bind_err == W::k32(0) && s.dev_err == W::k32(0));
	c.assume(rules::pp_order_errno<W>(p.page_shift, s.shift, order) == W::k32(0));
	c.prove(order == s.shift - W::k64(p.page_shift));
	return c;
}

// The driver's default order never trips the -E2BIG check.
template <class W>
Claim<W> default_order(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c);
	c.assume(s.attr_err == W::k32(0) && s.bind_err == W::k32(0) && s.dev_err == W::k32(0));
	const auto order = rules::rx_queue_order<W>(p.dev, p.page_shift, s.shift);
	c.prove(rules::pp_order_errno<W>(p.page_shift, s.shift, order) == W::k32(0));
	return c;
}

// A rejected bind fails with the kernel's errno: a bad or unknown attribute
// is -EINVAL, a size the device cannot take is -EOPNOTSUPP, and nothing else
// than the bind's errnos ever comes out.
template <class W>
Claim<W> reject_errno(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c);
	const auto order = rules::rx_queue_order<W>(p.dev, p.page_shift, s.shift);
	auto err = s.attr_err;
	err = W::select(err == W::k32(0), s.bind_err, err);
	err = W::select(err == W::k32(0), s.dev_err, err);
	err = W::select(err == W::k32(0), rules::pp_order_errno<W>(p.page_shift, s.shift, order), err);
	const uint32_t ps = uint32_t{1} << p.page_shift;
	const auto bad_value = s.value == W::k32(0) || !W::is_pow2(s.value) || W::ult(s.value, W::k32(ps));
	const bool known = p.pol.rx_attr == RxAttr::present;
	c.prove(!(s.present && (known ? bad_value : W::kb(true))) || err == rules::errno_word<W>(kEINVAL));
	const bool sizes = p.dev == Device::none || p.dev == Device::mlx5 || p.dev == Device::bnxt;
	if (!sizes)
		c.prove(!(s.attr_err == W::k32(0) && s.bind_err == W::k32(0) &&
			  s.shift != W::k64(p.page_shift)) ||
			err == rules::errno_word<W>(kEOPNOTSUPP));
	auto one_of = err == W::k32(0);
	for (int e : {kEINVAL, kE2BIG, kENOMEM, kEOPNOTSUPP, kERANGE})
		one_of = one_of || err == rules::errno_word<W>(e);
	c.prove(one_of);
	return c;
}

std::optional<Scenario> rx_scenario(const Point &p, In<Concrete> &in) {
	Claim<Concrete> c;
	const auto s = inputs(p, in, c);
	Scenario sc = tx_scenario(p, s.size, {{s.segs[0].addr, s.segs[0].len}});
	sc.dir = Dir::rx;
	sc.cfg.max_page_order = static_cast<unsigned>(s.max_page_order);
	if (s.present)
		sc.rx_buf_size = s.value;
	return sc;
}

// The RX allocator's niovs (RULES.md "RX allocator"): every niov of an
// accepted RX bind sits at a dmabuf offset (net_iov_virtual_addr) inside the
// dmabuf and aligned to the niov size, and its DMA address is the byte map
// there.  Two symbolic segments: the second shows where the first's length
// puts its niovs.
template <class W>
struct AllocInputs {
	typename W::u64 size;
	std::vector<rules::Seg<W>> segs;
	typename W::u64 idx;
};

template <class W>
AllocInputs<W> alloc_inputs(const Point &p, In<W> &in) {
	const uint64_t ps = uint64_t{1} << p.page_shift;
	auto size = in.u64("dmabuf_size", Dom::list({0, ps, 2 * ps, 3 * ps, 5 * ps / 2, 4 * ps}));
	auto segs = seg_table<W>(in, p.nsegs, Dom::list({0, ps, 1 << 21, uint64_t{1} << 30}),
				 Dom::list({0, ps / 2, ps, 3 * ps / 2, 2 * ps}));
	auto idx = in.u64("idx", Dom::upto(4));
	return {size, segs, idx};
}

template <class W>
Claim<W> alloc_byte_map(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = alloc_inputs(p, in);
	const auto shift = W::k64(p.niov_shift);
	const auto segs = span_of(s.segs);
	c.assume(honest_table<W>(s.size, s.segs));
	c.assume(rules::bind_errno<W>(p.pol, Dir::rx, s.size, segs, shift) == W::k32(0));
	const auto num = rules::num_niovs<W>(p.pol, Dir::rx, s.size, segs, shift);
	c.assume(W::ult(s.idx, num));
	const auto virt = rules::niov_virt<W>(p.pol, segs, shift, num, s.idx);
	const auto dma = rules::niov_dma<W>(segs, shift, num, s.idx);
	c.step(virt.ok && W::ult(virt.dma, s.size) && rules::aligned<W>(virt.dma, W::shl(W::k64(1), shift)));
	const auto bytes = rules::byte_map<W>(segs, virt.dma);
	c.prove(dma.ok && bytes.ok && bytes.dma == dma.dma);
	return c;
}

// The counterexample as a small RX scenario of the same shape: a first sg
// entry of one niov plus its odd tail, then one niov (small enough that the
// allocator sweep runs on it).
std::optional<Scenario> alloc_scenario(const Point &p, In<Concrete> &in) {
	const auto s = alloc_inputs(p, in);
	const uint64_t n = uint64_t{1} << p.niov_shift;
	std::vector<DmaSeg> segs;
	for (const auto &g : s.segs)
		segs.push_back({g.addr, g.len});
	uint64_t size = s.size;
	if (segs.size() >= 2 && (segs[0].len & (n - 1))) {
		segs = {{segs[0].addr, n + (segs[0].len & (n - 1))}, {segs[1].addr, n}};
		size = segs[0].len + segs[1].len;
	}
	Scenario sc = tx_scenario(p, size, std::move(segs));
	sc.dir = Dir::rx;
	if (p.niov_shift != p.page_shift)
		sc.rx_buf_size = static_cast<uint32_t>(n);
	return sc;
}

// Every shift an RX bind can pick: PAGE_SHIFT, and with rx-buf-size every
// power of two up to 2 MiB.
std::vector<Point> alloc_points(const Policies &pol) {
	std::vector<Point> out;
	for (Point p : each_page(pol, 2)) {
		const unsigned last = pol.rx_attr == RxAttr::present ? 21 : p.page_shift;
		for (unsigned sh = p.page_shift; sh <= last; ++sh) {
			p.niov_shift = sh;
			out.push_back(p);
		}
	}
	return out;
}

std::vector<Point> rx_points(const Policies &pol) {
	auto v = each_page_device(pol);
	for (auto &p : v)
		p.nsegs = 1;
	return v;
}

constexpr uint32_t kAttrReads = kReadsPageShift | kReadsRxAttr | kReadsBind | kReadsSegs;
constexpr uint32_t kQueueReads = kAttrReads | kReadsDevice;

}  // namespace

void add_rx(std::vector<Lemma> &out) {
	const std::string dom = "page_shift 12/14/16 x device none/mlx5/gve/fbnic/bnxt x any rx-buf-size, "
				"dmabuf size, segment, MAX_PAGE_ORDER 0..20 (symbolic)";
	out.push_back({"rx.shift_matches_attr", "rx", Inv::rx_shift_matches_attr,
		       "an accepted rx-buf-size gives 1 << niov_shift == rx-buf-size; none gives PAGE_SHIFT",
		       "page_shift 12/14/16 x any rx-buf-size, dmabuf size, segment", 0.15, kAttrReads,
		       [](const Policies &pol) { return each_page(pol, 1); }, shift_matches_attr<Sym>,
		       shift_matches_attr<Concrete>, rx_scenario});
	out.push_back({"rx.pp_order", "rx", Inv::rx_pp_order,
		       "an opened RX queue's page_pool order is niov_shift - PAGE_SHIFT",
		       dom + " x any driver order", 0.55, kQueueReads, rx_points, pp_order<Sym>,
		       pp_order<Concrete>, rx_scenario});
	out.push_back({"rx.default_order", "rx", Inv::rx_pp_order,
		       "the driver's default page_pool order passes the order check of every accepted bind",
		       dom, 0.60, kQueueReads, rx_points, default_order<Sym>, default_order<Concrete>,
		       rx_scenario});
	out.push_back({"rx.reject_errno", "rx", Inv::rx_shift_matches_attr,
		       "a rejected RX bind fails with the kernel's errno (-EINVAL for a bad attribute, "
		       "-EOPNOTSUPP for sizes the device cannot take)",
		       dom, 0.95, kQueueReads, rx_points, reject_errno<Sym>, reject_errno<Concrete>, nullptr});
	out.push_back({"rx.alloc_byte_map", "rx", Inv::rx_alloc_byte_map,
		       "every niov of an accepted RX bind sits inside the dmabuf at an offset aligned to the niov "
		       "size, and its DMA address is the byte map there",
		       "page_shift 12/14/16 x every RX niov shift (up to 2 MiB with rx-buf-size) x any honest "
		       "two-segment table the bind accepts x every niov",
		       2.0, kReadsPageShift | kReadsNiovShift | kReadsBind | kReadsRxAttr | kReadsSegs, alloc_points,
		       alloc_byte_map<Sym>, alloc_byte_map<Concrete>, alloc_scenario});
}

}  // namespace niov::smt::lemmas
