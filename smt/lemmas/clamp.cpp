// clamp.*: the frags zerocopy_fill_skb_from_devmem cuts (rules::fill_frag,
// the loop body ModelImpl::fill runs), for any offset inside the dmabuf, any
// length the socket passes (1..INT_MAX), any iov element, any niov shift the
// bind can pick and any tx_max_frag_size override.  clamp.sum is the loop's
// inductive step, so it covers any number of frags.
#include <algorithm>

#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

template <class W>
struct FillInputs {
	typename W::u64 shift;
	typename W::u64 n;
	typename W::u64 size;
	typename W::u64 virt;
	typename W::u64 length;
	typename W::u64 iov_rem;
	typename W::boolean override_max;
	typename W::u32 tx_max_frag;
	typename W::u64 dev_max;
	rules::FillFrag<W> f;
};

// The device's netmem_tx_max_frag_size: the default or, when @any_max, any
// tx_max_frag_size override (the scenario format takes 1..U32_MAX).
template <class W>
void max_frag_inputs(const Point &p, In<W> &in, Claim<W> &c, bool any_max, typename W::boolean &override_max,
		     typename W::u32 &tmf, typename W::u64 &dev_max) {
	override_max = in.flag("has_tx_max_frag_size", any_max ? Dom::list({0, 1}) : Dom::list({0}));
	tmf = in.u32("tx_max_frag_size", Dom::list({1, 4096, 32768, 65536}));
	if (!any_max)
		c.assume(!override_max);
	c.assume(tmf != W::k32(0));
	dev_max = W::select(override_max, W::zext(tmf), device_max_frag<W>(p));
}

template <class W>
FillInputs<W> inputs(const Point &p, In<W> &in, Claim<W> &c, bool any_max) {
	const uint64_t ps = uint64_t{1} << p.page_shift;
	FillInputs<W> s{W::k64(0), W::k64(0), W::k64(0), W::k64(0), W::k64(0), W::k64(0), W::kb(false),
		    W::k32(0), W::k64(0), {W::kb(false), W::k64(0), W::k32(0), W::k32(0), W::k32(0), W::k64(0)}};
	s.shift = tx_shift<W>(p);
	s.n = W::shl(W::k64(1), s.shift);
	s.size = in.u64("size", Dom::list({uint64_t{1} << 22}));
	s.virt = in.u64("virt", Dom::steps(0, ps / 2 - 1, 24));
	s.length = in.u64("length", Dom::list({1, 1448, 4096, 65160, 65536, 200000, kIntMax}));
	s.iov_rem = in.u64("iov_rem", Dom::list({0, 1, 3000, 65536, 1 << 20, UINT64_MAX}));
	max_frag_inputs(p, in, c, any_max, s.override_max, s.tx_max_frag, s.dev_max);
	c.assume(W::ult(s.virt, s.size));
	c.assume(W::uge(s.length, W::k64(1)) && W::ule(s.length, W::k64(kIntMax)));
	s.f = rules::fill_frag<W>(p.pol, p.page_shift, s.size, rules::lookup_shift<W>(p.pol, p.page_shift, s.shift),
				  s.virt, s.length, s.iov_rem, s.dev_max);
	c.assume(s.f.ok);
	return s;
}

template <class W>
Claim<W> progress(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c, true);
	c.assume(W::uge(s.iov_rem, W::k64(1)));
	c.prove(s.f.len != W::k32(0));
	return c;
}

// The checker's frag.limits: the niov remainder from the frag's own offset,
// the length, the iov remainder and (max_frag=device) the device max; and the
// u32 frag length holds the whole size.
template <class W>
Claim<W> limits(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c, true);
	const auto off = W::zext(s.f.off);
	const auto niov_rem = s.n - rules::umin<W>(off, s.n);
	c.prove(W::ule(s.f.size, niov_rem) && W::ule(s.f.size, s.length) && W::ule(s.f.size, s.iov_rem));
	if (p.pol.max_frag == MaxFrag::device)
		c.prove(W::ule(s.f.size, s.dev_max));
	c.prove(W::zext(s.f.len) == s.f.size);
	return c;
}

template <class W>
Claim<W> within_niov(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c, true);
	c.prove(W::ule(W::zext(s.f.off) + W::zext(s.f.len), s.n));
	return c;
}

// With the device's own netmem_tx_max_frag_size.
template <class W>
Claim<W> desc_exact(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c, false);
	c.prove(rules::desc_exact<W>(p.dev, s.f.len));
	return c;
}

// The base case of the truesize induction: a frag charges at least its length.
template <class W>
Claim<W> charge_covers(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = inputs(p, in, c, true);
	c.prove(W::uge(s.f.charge, s.f.len));
	return c;
}

// One iteration of the fill loop from any state satisfying the loop
// invariant  zext(skb.len) + length <= INT_MAX,  length <= the iterator's
// count,  nr_frags <= MAX_SKB_FRAGS: it keeps the invariant and
// zext(skb.len) + length unchanged.  By induction over the iterations, the
// skb length grows by exactly the bytes the fill takes off `length` (the
// bytes accepted), for any number of frags, and never past MAX_SKB_FRAGS.
template <class W>
Claim<W> sum(const Point &p, In<W> &in) {
	Claim<W> c;
	const uint64_t ps = uint64_t{1} << p.page_shift;
	const auto shift = tx_shift<W>(p);
	auto size = in.u64("size", Dom::list({uint64_t{1} << 22}));
	auto max_frags = in.u64("max_skb_frags", Dom::list({kMinMaxSkbFrags, kMaxMaxSkbFrags}));
	auto nr = in.u64("nr_frags", Dom::list({0, kMinMaxSkbFrags - 1, kMinMaxSkbFrags}));
	auto skb_len = in.u32("skb_len", Dom::list({0, 65000, kIntMax - 1}));
	auto length = in.u64("length", Dom::list({0, 1, 4096, 65160, 200000}));
	auto count = in.u64("count", Dom::list({0, 1, 5000, 1 << 20}));
	auto virt = in.u64("virt", Dom::list({0, ps - 1, (1 << 21) - 100}));
	auto rem = in.u64("iov_rem", Dom::list({0, 1, 3000, 1 << 20}));
	typename W::boolean override_max = W::kb(false);
	typename W::u32 tmf = W::k32(0);
	typename W::u64 dev_max = W::k64(0);
	max_frag_inputs(p, in, c, true, override_max, tmf, dev_max);
	c.assume(W::uge(max_frags, W::k64(kMinMaxSkbFrags)) && W::ule(max_frags, W::k64(kMaxMaxSkbFrags)));
	const auto total = W::zext(skb_len) + length;
	c.assume(W::ule(length, W::k64(kIntMax)) && W::ule(total, W::k64(kIntMax)) && W::ule(length, count) &&
		 W::ule(nr, max_frags));
	// The loop runs this iteration and the lookup succeeds.
	c.assume(length != W::k64(0) && count != W::k64(0) && W::ult(nr, max_frags));
	const auto f = rules::fill_frag<W>(p.pol, p.page_shift, size, rules::lookup_shift<W>(p.pol, p.page_shift, shift),
					   virt, length, rem, dev_max);
	c.assume(f.ok);
	// Hints: clamp.limits' conclusions at this point (its preconditions hold
	// here) and an instance of truesize.zext_add.
	c.assume(W::zext(f.len) == f.size && W::ule(f.size, length) && zext_add_fact<W>(skb_len, f.len));
	// ModelImpl::fill's glue: skb.len += len; length -= size; the iterator
	// advances by size, clamped to its count.
	const auto len2 = skb_len + f.len;
	const auto length2 = length - f.size;
	const auto count2 = count - rules::umin<W>(f.size, count);
	const auto nr2 = nr + W::k64(1);
	c.prove(W::zext(len2) + length2 == total);
	c.prove(W::ule(length2, count2) && W::ule(nr2, max_frags) && W::ule(length2, length));
	return c;
}

constexpr uint64_t kScenarioFrags = 4096;

std::optional<Scenario> fill_scenario(const Point &p, In<Concrete> &in) {
	Claim<Concrete> c;
	const auto s = inputs(p, in, c, true);
	const unsigned shift = static_cast<unsigned>(s.shift);
	// A dmabuf holding the whole first frag, and an element that stays in it:
	// a send that runs off the end fails -EFAULT and drops its frags.
	const uint64_t reach = std::min(s.iov_rem, s.length);
	const auto segs = segment_for_shift(shift, s.virt + reach);
	Scenario sc = tx_scenario(p, segs[0].len, segs);
	sc.cfg.size_goal = static_cast<uint32_t>(s.length);
	if (s.override_max)
		sc.cfg.tx_max_frag_size = s.tx_max_frag;
	// At most kScenarioFrags frags of the first one's size: enough for the
	// per-skb charge invariants to add up, and a replay that stays cheap when
	// the frags are tiny and nothing (a zero charge) stops the send early.
	const uint64_t cap = std::max<uint64_t>(s.f.size, 1) * kScenarioFrags;
	Op send;
	send.iov.push_back({s.virt, std::min({s.iov_rem, segs[0].len - s.virt, cap})});
	sc.ops.push_back(send);
	Op free;
	free.kind = OpKind::free;
	sc.ops.push_back(free);
	return sc;
}

std::vector<Point> frag_points(const Policies &pol) { return each_shift(each_page_device(pol)); }

constexpr uint32_t kFragReads = kReadsPageShift | kReadsNiovShift | kReadsDevMax | kReadsLookup | kReadsMaxFrag;

}  // namespace

void add_clamp(std::vector<Lemma> &out) {
	const std::string dom = "page_shift 12/14/16 x device x any niov shift the bind allows, offset, "
				"length 1..INT_MAX, iov element, tx_max_frag_size";
	out.push_back({"clamp.progress", "clamp", Inv::frag_progress,
		       "a frag is non-empty while the iov element has bytes", dom, 0.15, kFragReads, frag_points,
		       progress<Sym>, progress<Concrete>, fill_scenario});
	out.push_back({"clamp.limits", "clamp", Inv::frag_limits,
		       "a frag is <= niov remainder, length, iov remainder and device max frag, and fits its u32",
		       dom, 1.50, kFragReads, frag_points, limits<Sym>, limits<Concrete>, fill_scenario});
	out.push_back({"clamp.within_niov", "clamp", Inv::frag_within_niov, "a frag never crosses its niov's end",
		       dom, 0.60, kFragReads, frag_points, within_niov<Sym>, within_niov<Concrete>, fill_scenario});
	out.push_back({"clamp.desc_exact", "clamp", Inv::dev_desc_len_exact,
		       "the device's TX descriptor length field encodes every frag exactly",
		       "page_shift 12/14/16 x device x any niov shift the bind allows, offset, length, iov "
		       "element; the device's own max frag",
		       0.10, kFragReads | kReadsDevice, frag_points, desc_exact<Sym>, desc_exact<Concrete>,
		       fill_scenario});
	out.push_back({"clamp.charge_covers", "clamp", Inv::tcp_truesize_covers_bytes,
		       "every frag charges at least its length to truesize (the truesize induction's base)",
		       dom, 0.05, kFragReads | kReadsTruesize, frag_points, charge_covers<Sym>, charge_covers<Concrete>,
		       fill_scenario});
	out.push_back({"clamp.sum", "clamp", Inv::frag_bytes_accounted,
		       "each fill iteration adds to the skb length exactly the bytes it takes off the length "
		       "(so the frags sum to the bytes accepted), never passing MAX_SKB_FRAGS",
		       dom + ", MAX_SKB_FRAGS 17..45 (symbolic), any loop state", 4.00,
		       kFragReads, frag_points, sum<Sym>, sum<Concrete>, nullptr});
}

}  // namespace niov::smt::lemmas
