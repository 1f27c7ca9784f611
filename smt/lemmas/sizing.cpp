// sizing.*: the TX niov size (RULES.md bind step 2) for every page size and
// any sg table of up to kSizingSegs symbolic segments; sizing.fold carries the
// result to tables of any length.
//
// Why kSizingSegs segments are enough for the bounded lemmas: a zero-length segment
// at address 0 is aligned to everything, so kSizingSegs symbolic entries cover every
// shorter table.  Why sizing.fold covers any length: layout_aligned is a left
// fold `ok = ok && seg_ok(s, n)` starting from aligned(size, n), tx_size_loop
// consults the table only through layout_aligned, and tx_size_decl folds the
// bits; sizing.fold proves one fold step equals OR-ing the segment's bits
// into the size.  By induction on the table, any table T behaves like the
// empty table with size | bits(T), which the bounded lemmas cover (the size
// is symbolic).
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

constexpr unsigned kSizingSegs = 2;

Dom size_dom(unsigned ps) {
	const uint64_t p = uint64_t{1} << ps;
	return Dom::list({0, 7, p, 2 * p, 3 * p, 4 * p, 1 << 20, 1 << 21, 3 << 20, 1 << 22, 6 << 20,
			  (1 << 21) + p, 5 << 21, uint64_t{1} << 30, (uint64_t{1} << 30) + (1 << 21),
			  uint64_t{3} << 40});
}
Dom addr_dom(unsigned ps) { return Dom::list({0, uint64_t{1} << ps, 1 << 21, (uint64_t{1} << 30) + (1 << 20)}); }
Dom len_dom(unsigned ps) { return Dom::list({0, uint64_t{1} << ps, 1 << 21, 3 << 20}); }

template <class W>
struct SizingInputs {
	typename W::u64 size;
	std::vector<rules::Seg<W>> segs;
	typename W::u64 shift;
	typename W::u64 n;
};

template <class W>
SizingInputs<W> inputs(const Point &p, In<W> &in) {
	auto size = in.u64("size", size_dom(p.page_shift));
	auto segs = seg_table<W>(in, p.nsegs, addr_dom(p.page_shift), len_dom(p.page_shift));
	auto shift = rules::tx_niov_shift<W>(p.pol, p.page_shift, size, span_of(segs));
	return {size, segs, shift, W::shl(W::k64(1), shift)};
}

// The bind went through: the table is honest and bind_errno accepted it.
template <class W>
void assume_bound(const Point &p, const SizingInputs<W> &s, Claim<W> &c) {
	c.assume(honest_table<W>(s.size, s.segs) && s.size != W::k64(0));  // a dmabuf is never empty
	c.assume(rules::bind_errno<W>(p.pol, Dir::tx, s.size, span_of(s.segs), s.shift) == W::k32(0));
}

template <class W>
Claim<W> pow2_range(const Point &p, In<W> &in) {
	const auto s = inputs(p, in);
	Claim<W> c;
	c.prove(W::is_pow2(s.n) && W::uge(s.n, W::k64(uint64_t{1} << p.page_shift)) &&
		W::ule(s.n, W::k64(uint64_t{1} << p.pol.tx_niov_max_shift)));
	return c;
}

template <class W>
Claim<W> aligns_dmabuf(const Point &p, In<W> &in) {
	const auto s = inputs(p, in);
	Claim<W> c;
	assume_bound(p, s, c);
	c.prove(rules::aligned<W>(s.size, s.n));
	return c;
}

// As the checker states it: lengths always; addresses with the freelist bind
// or once the niov is larger than a page (gen_pool-era PAGE_SIZE niovs never
// promised aligned addresses).
template <class W>
Claim<W> aligns_segments(const Point &p, In<W> &in) {
	const auto s = inputs(p, in);
	Claim<W> c;
	assume_bound(p, s, c);
	const auto addr_checked = p.pol.bind == BindStyle::freelist
					  ? W::kb(true)
					  : W::ugt(s.n, W::k64(uint64_t{1} << p.page_shift));
	for (const auto &g : s.segs)
		c.prove(rules::aligned<W>(g.len, s.n) && (!addr_checked || rules::aligned<W>(g.addr, s.n)));
	return c;
}

template <class W>
Claim<W> maximal(const Point &p, In<W> &in) {
	const auto s = inputs(p, in);
	Claim<W> c;
	const auto twice = W::shl(s.n, W::k64(1));
	c.prove(s.n == W::k64(uint64_t{1} << p.pol.tx_niov_max_shift) ||
		!rules::layout_aligned<W>(TxNiov::autosize, s.size, span_of(s.segs), twice));
	return c;
}

template <class W>
Claim<W> loop_is_decl(const Point &p, In<W> &in) {
	const auto s = inputs(p, in);
	Claim<W> c;
	const auto mode = p.pol.tx_niov;
	const unsigned cap = p.pol.tx_niov_max_shift;
	c.prove(rules::tx_size_loop<W>(mode, p.page_shift, s.size, span_of(s.segs), cap) ==
		rules::tx_size_decl<W>(mode, p.page_shift, s.size, span_of(s.segs), cap));
	return c;
}

// One fold step: a segment appended to a table whose bits so far are B acts
// like B | its bits, for the alignment test, the loop and the declarative form.
template <class W>
Claim<W> fold(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto mode = p.pol.tx_niov;
	const unsigned cap = p.pol.tx_niov_max_shift;
	auto b = in.u64("bits", size_dom(p.page_shift));
	const std::vector<rules::Seg<W>> one = seg_table<W>(in, 1, addr_dom(p.page_shift), len_dom(p.page_shift));
	auto shift = in.u64("shift", Dom::range(p.page_shift, cap));
	c.assume(W::uge(shift, W::k64(p.page_shift)) && W::ule(shift, W::k64(cap)));
	const auto n = W::shl(W::k64(1), shift);
	const auto seg_bits = mode == TxNiov::autosize_noaddr ? one[0].len : one[0].len | one[0].addr;
	const auto merged = b | seg_bits;
	const std::vector<rules::Seg<W>> none;
	c.prove(rules::layout_aligned<W>(mode, b, span_of(one), n) ==
		rules::layout_aligned<W>(mode, merged, span_of(none), n));
	c.prove(rules::tx_size_loop<W>(mode, p.page_shift, b, span_of(one), cap) ==
		rules::tx_size_loop<W>(mode, p.page_shift, merged, span_of(none), cap));
	c.prove(rules::tx_size_decl<W>(mode, p.page_shift, b, span_of(one), cap) ==
		rules::tx_size_decl<W>(mode, p.page_shift, merged, span_of(none), cap));
	return c;
}

std::optional<Scenario> bind_scenario(const Point &p, In<Concrete> &in) {
	const auto s = inputs(p, in);
	std::vector<DmaSeg> segs;
	for (const auto &g : s.segs)
		segs.push_back({g.addr, g.len});
	Scenario sc = tx_scenario(p, s.size, std::move(segs));
	if (s.size) {
		Op send;
		send.iov.push_back({0, s.size < 65536 ? s.size : 65536});
		sc.ops.push_back(send);
	}
	Op free;
	free.kind = OpKind::free;
	sc.ops.push_back(free);
	return sc;
}

std::vector<Point> bounded(const Policies &pol) { return each_page(pol, kSizingSegs); }
std::vector<Point> bounded_auto(const Policies &pol) { return only_autosize(each_page(pol, kSizingSegs)); }
std::vector<Point> fold_points(const Policies &pol) { return only_autosize(each_page(pol, 1)); }

constexpr uint32_t kSizingReads = kReadsPageShift | kReadsSegs | kReadsTxNiov | kReadsBind;

}  // namespace

void add_sizing(std::vector<Lemma> &out) {
	const std::string dom = "page_shift 12/14/16 x sg tables of <= 2 symbolic segments, any dmabuf size";
	out.push_back({"sizing.pow2_range", "sizing", Inv::sizing_pow2_range,
		       "the TX niov size is a power of two in [PAGE_SIZE, tx_niov_max (2 MiB)]", dom, 2.50,
		       kSizingReads, bounded, pow2_range<Sym>, pow2_range<Concrete>, nullptr});
	out.push_back({"sizing.aligns_dmabuf", "sizing", Inv::sizing_aligns_dmabuf,
		       "an accepted TX bind's niov size divides the dmabuf size", dom + ", bind accepted",
		       0.05, kSizingReads, bounded, aligns_dmabuf<Sym>, aligns_dmabuf<Concrete>, bind_scenario});
	out.push_back({"sizing.aligns_segments", "sizing", Inv::sizing_aligns_segments,
		       "an accepted TX bind's niov size divides every segment length and address",
		       dom + ", bind accepted", 0.05, kSizingReads, bounded, aligns_segments<Sym>,
		       aligns_segments<Concrete>, bind_scenario});
	out.push_back({"sizing.maximal", "sizing", Inv::sizing_maximal,
		       "no larger power of two up to tx_niov_max (2 MiB) aligns the dmabuf size and every segment",
		       dom + ", tx_niov auto modes", 0.70, kSizingReads, bounded_auto, maximal<Sym>,
		       maximal<Concrete>, bind_scenario});
	out.push_back({"sizing.loop_is_decl", "sizing", Inv::sizing_loop_matches_decl,
		       "the kernel's halving loop equals the declarative largest-aligned-power-of-two form",
		       dom + ", tx_niov auto modes", 0.15, kSizingReads, bounded_auto, loop_is_decl<Sym>,
		       loop_is_decl<Concrete>, bind_scenario});
	out.push_back({"sizing.fold", "sizing", Inv::sizing_loop_matches_decl,
		       "appending a segment acts as OR-ing its bits into the size: the sizing results "
		       "hold for sg tables of any length",
		       "page_shift 12/14/16 x any accumulated bits, one symbolic segment, niov shift "
		       "PAGE_SHIFT..21",
		       0.25, kReadsPageShift | kReadsTxNiov, fold_points, fold<Sym>, fold<Concrete>, nullptr});
}

}  // namespace niov::smt::lemmas
