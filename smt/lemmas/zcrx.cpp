// zcrx.*: io_uring zcrx's rx_buf_len (RULES.md "zcrx"), composed as the
// model's bind composes it: rules::zcrx_errno, then rules::zcrx_niov_shift.
// The area's alignment (io_area_max_shift, the lowest set bit over segment
// lengths) is symbolic.
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

template <class W>
Claim<W> rx_buf_len(const Point &p, In<W> &in) {
	Claim<W> c;
	const uint64_t ps = uint64_t{1} << p.page_shift;
	auto len = in.u32("rx_buf_len", Dom::upto(1 << 16));
	auto area = in.u64("area_max_shift", Dom::range(0, 64));
	c.assume(W::ule(area, W::k64(64)));
	c.assume(rules::zcrx_errno<W>(p.page_shift, len, area, p.zcrx_device) == W::k32(0));
	const auto shift = rules::zcrx_niov_shift<W>(p.page_shift, len);
	const auto want = W::select(len == W::k32(0), W::k64(ps), W::zext(len));
	c.prove(W::shl(W::k64(1), shift) == want && W::ule(shift, area));
	c.prove(len == W::k32(0) || (W::is_pow2(len) && W::uge(W::zext(len), W::k64(ps))));
	if (!p.zcrx_device)
		c.prove(shift == W::k64(p.page_shift));
	return c;
}

std::vector<Point> zcrx_points(const Policies &pol) {
	std::vector<Point> v;
	for (Point p : each_page(pol))
		for (bool dev : {true, false}) {
			p.zcrx_device = dev;
			v.push_back(p);
		}
	return v;
}

}  // namespace

void add_zcrx(std::vector<Lemma> &out) {
	out.push_back({"zcrx.rx_buf_len", "zcrx", Inv::zcrx_rx_buf_len,
		       "an accepted zcrx rx_buf_len is 0 (PAGE_SIZE) or a power of two >= PAGE_SIZE, gives "
		       "that niov size and fits the area's alignment",
		       "page_shift 12/14/16 x with/without a device x any rx_buf_len and area alignment", 0.15,
		       kReadsPageShift | kReadsZcrxDevice, zcrx_points, rx_buf_len<Sym>, rx_buf_len<Concrete>, nullptr});
}

}  // namespace niov::smt::lemmas
