// truesize.*: the TCP accounting, inductively.  A state is the skbs an
// operation touches plus `rest`, the summed truesize of every other queued
// skb.  The invariant I:
//   every touched skb: truesize >= head truesize + len (computed without wrap),
//   sk_wmem_queued >= 0 as an int, and sk_wmem_queued == rest + sum of truesize
//   (as integers, not mod 2^32).
// Each lemma starts from an arbitrary state satisfying I, applies one
// operation from rules.hpp (trim_head, fragment, shift, free_skb), and proves
// I again and that no truesize update wrapped its u32.  new_skb and add_frag
// are the socket's glue around the fill (Socket::new_skb, Socket::send adding
// the fill's truesize delta); add_frag assumes what clamp.charge_covers
// proves per policy (charge >= len).  Since every state a sendmsg/ack/split/
// shift/free sequence reaches starts from the empty socket (I holds) and goes
// through these steps, I holds after any sequence.
//
// Bounds the kernel keeps: sk_wmem_queued stays below INT_MAX (sk_sndbuf
// bounds it, tcp_fragment refuses queues twice past it); an skb's length is at
// most size_goal <= INT_MAX.
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

Dom small_u32() { return Dom::list({0, 1, 1024, 4096, 8688, 65160, 0x7fffffff, 0xffffffff}); }

template <class W>
rules::SkbAcct<W> skb(In<W> &in, const std::string &name) {
	auto len = in.u32(name + ".len", small_u32());
	auto ts = in.u32(name + ".truesize", small_u32());
	return {len, ts};
}

// rules::truesize_covers in the form the step lemmas use: truesize >= len
// and truesize - len >= head, all in u32.  truesize.covers_split proves the
// two equal for every skb, so proving this form proves the rule's.  (The
// rule's form compares 64-bit sums, which a SAT solver finds slow to relate
// across a step; this one cancels at word level.)
template <class W>
typename W::boolean covers(const rules::SkbAcct<W> &s, const typename W::u32 &head) {
	return W::uge(s.truesize, s.len) && W::uge(s.truesize - s.len, head);
}

template <class W>
Claim<W> covers_split(const Point &, In<W> &in) {
	Claim<W> c;
	auto head = in.u32("head_truesize", Dom::upto(64));
	auto a = skb(in, "skb");
	c.prove(rules::truesize_covers<W>(a, head) == covers<W>(a, head));
	return c;
}

template <class W>
Claim<W> zext_sub(const Point &, In<W> &in) {
	Claim<W> c;
	c.prove(zext_sub_fact<W>(in.u32("a", Dom::upto(256)), in.u32("b", Dom::upto(256))));
	return c;
}

template <class W>
Claim<W> zext_add(const Point &, In<W> &in) {
	Claim<W> c;
	c.prove(zext_add_fact<W>(in.u32("a", Dom::upto(256)), in.u32("b", Dom::upto(256))));
	return c;
}

// sk_wmem_queued == rest + the touched skbs' truesize, as integers.
template <class W>
typename W::boolean wmem_sum(const typename W::u32 &wmem, const typename W::u64 &rest,
			     std::initializer_list<rules::SkbAcct<W>> skbs) {
	auto sum = rest;
	for (const auto &s : skbs)
		sum = sum + W::zext(s.truesize);
	return W::zext(wmem) == sum;
}

// sk_wmem_queued >= 0 as the int it is.
template <class W>
typename W::boolean wmem_nonneg(const typename W::u32 &wmem) {
	return W::sge32(wmem, W::k32(0));
}

template <class W>
typename W::boolean wmem_ok(const typename W::u32 &wmem, const typename W::u64 &rest,
			    std::initializer_list<rules::SkbAcct<W>> skbs) {
	return wmem_nonneg<W>(wmem) && wmem_sum<W>(wmem, rest, skbs);
}

template <class W>
struct State {
	typename W::u32 head;
	typename W::u32 wmem;
	typename W::u64 rest;
};

template <class W>
State<W> state(In<W> &in, Claim<W> &c) {
	auto head = in.u32("head_truesize", Dom::list({0, 1024, 0x7fffffff}));
	auto wmem = in.u32("sk_wmem_queued", small_u32());
	auto rest = in.u64("rest_truesize", Dom::list({0, 1024, 0x7fffffff}));
	// rest is a sum of u32s bounded by wmem; keep it from wrapping 64 bits.
	c.assume(W::ule(rest, W::k64(kIntMax)));
	return {head, wmem, rest};
}

template <class W>
typename W::boolean sub_exact(const typename W::u32 &a, const typename W::u32 &b) {
	return W::uge(a, b);
}

template <class W>
typename W::boolean add_exact(const typename W::u32 &a, const typename W::u32 &b) {
	return W::ule(W::zext(a) + W::zext(b), W::k64(UINT32_MAX));
}

template <class W>
typename W::boolean wmem_room(const typename W::u32 &wmem, const typename W::u32 &add) {
	return W::ule(W::zext(wmem) + W::zext(add), W::k64(kIntMax));
}

// Each step lemma proves, in order, each part given to the parts after it:
//  1. the truesize/len/sk_wmem_queued updates do not wrap (comparisons), so
//  2. each update equals its zero-extended integer form (zext(a - b) ==
//     zext(a) - zext(b)): tcp.truesize_no_wrap;
//  3. every touched skb still covers its bytes;
//  4. the new sum of truesize equals a linear form of the old values (the
//     updates substituted), sk_wmem_queued equals the same linear form, hence
//     sk_wmem_queued == rest + sum of truesize; and sk_wmem_queued >= 0.
// The linear forms are the proof's intermediate terms: they let Z3 cancel at
// word level what a SAT solver would otherwise have to re-derive bit by bit
// (seconds per query instead of milliseconds).

template <class W>
typename W::boolean sub_eq(const typename W::u32 &a, const typename W::u32 &b) {
	return W::zext(a - b) == W::zext(a) - W::zext(b);
}

template <class W>
typename W::boolean add_eq(const typename W::u32 &a, const typename W::u32 &b) {
	return W::zext(a + b) == W::zext(a) + W::zext(b);
}

// The invariant on one skb, in both forms (equal by truesize.covers_split).
template <class W>
typename W::boolean covers_both(const rules::SkbAcct<W> &s, const typename W::u32 &head) {
	return rules::truesize_covers<W>(s, head) && covers<W>(s, head);
}

// Part 4 for a post state whose sum is @sum_after and whose wmem is @wmem_after,
// with @linear the sum after substituting the exact updates and @wmem_linear
// the same for sk_wmem_queued.
template <class W>
void wmem_parts(Claim<W> &c, const typename W::u32 &wmem_after, const typename W::u64 &sum_after,
		const typename W::u64 &linear, const typename W::u64 &wmem_linear) {
	c.step(sum_after == linear);
	c.step(W::zext(wmem_after) == wmem_linear);
	c.step(wmem_linear == linear);
	c.step(W::zext(wmem_after) == sum_after, kChain);  // tcp.wmem_sum
	c.prove(wmem_nonneg<W>(wmem_after));	    // tcp.wmem_nonneg
}

// tcp_trim_head of a partly acked skb: 0 < n < len (a fully acked one is freed).
template <class W>
Claim<W> trim_head(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	auto a = skb(in, "skb");
	auto n = in.u32("n", small_u32());
	c.assume(covers_both<W>(a, st.head) && wmem_ok<W>(st.wmem, st.rest, {a}));
	c.assume(W::ugt(n, W::k32(0)) && W::ult(n, a.len));
	c.assume(zext_sub_fact<W>(st.wmem, n) && zext_sub_fact<W>(a.truesize, n));
	const auto before = a;
	const auto w0 = st.wmem;
	c.step(sub_exact<W>(a.truesize, n) && sub_exact<W>(st.wmem, n));
	c.step(sub_eq<W>(a.truesize, n) && sub_eq<W>(st.wmem, n));
	rules::trim_head<W>(a, st.wmem, n);
	c.step(covers<W>(a, st.head));
	wmem_parts<W>(c, st.wmem, st.rest + W::zext(a.truesize),
		      st.rest + (W::zext(before.truesize) - W::zext(n)), W::zext(w0) - W::zext(n));
	return c;
}

// tso_fragment / tcp_fragment inside the skb: 0 < at < len.
template <class W>
Claim<W> fragment(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	auto a = skb(in, "skb");
	auto at = in.u32("at", small_u32());
	c.assume(covers_both<W>(a, st.head) && wmem_ok<W>(st.wmem, st.rest, {a}));
	c.assume(W::ugt(at, W::k32(0)) && W::ult(at, a.len));
	c.assume(wmem_room<W>(st.wmem, st.head));
	const auto nlen = a.len - at;
	const auto before = a;
	const auto w0 = st.wmem;
	c.assume(zext_sub_fact<W>(a.truesize, nlen) && zext_add_fact<W>(st.head, nlen) &&
		 zext_add_fact<W>(st.wmem, st.head));
	c.step(sub_exact<W>(a.truesize, nlen) && add_exact<W>(st.head, nlen) && add_exact<W>(st.wmem, st.head));
	c.step(sub_eq<W>(a.truesize, nlen) && add_eq<W>(st.head, nlen) && add_eq<W>(st.wmem, st.head));
	const auto b = rules::fragment<W>(a, st.wmem, at, st.head);
	c.step(covers<W>(a, st.head) && covers<W>(b, st.head));
	wmem_parts<W>(c, st.wmem, st.rest + W::zext(a.truesize) + W::zext(b.truesize),
		      st.rest + (W::zext(before.truesize) - W::zext(nlen)) + (W::zext(st.head) + W::zext(nlen)),
		      W::zext(w0) + W::zext(st.head));
	return c;
}

// skb_shift of 0 < n <= from.len bytes onto the head skb.
template <class W>
Claim<W> shift(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	auto to = skb(in, "to");
	auto from = skb(in, "from");
	auto n = in.u32("n", small_u32());
	c.assume(covers_both<W>(to, st.head) && covers_both<W>(from, st.head) &&
		 wmem_ok<W>(st.wmem, st.rest, {to, from}));
	c.assume(W::ugt(n, W::k32(0)) && W::ule(n, from.len));
	c.assume(zext_add_fact<W>(to.truesize, n) && zext_sub_fact<W>(from.truesize, n) &&
		 zext_add_fact<W>(to.len, n));
	const auto to0 = to;
	const auto from0 = from;
	c.step(add_exact<W>(to.truesize, n) && sub_exact<W>(from.truesize, n) && add_exact<W>(to.len, n));
	c.step(add_eq<W>(to.truesize, n) && sub_eq<W>(from.truesize, n) && add_eq<W>(to.len, n));
	rules::shift<W>(to, from, n);
	c.step(covers<W>(from, st.head));
	// The receiving skb gains n bytes and n truesize: its rule form, from the
	// exact updates (truesize.covers_split relates the forms).
	c.step(rules::truesize_covers<W>(to, st.head), kChain);
	wmem_parts<W>(c, st.wmem, st.rest + W::zext(to.truesize) + W::zext(from.truesize),
		      st.rest + (W::zext(to0.truesize) + W::zext(n)) + (W::zext(from0.truesize) - W::zext(n)),
		      W::zext(st.wmem));
	return c;
}

// tcp_wmem_free_skb: the socket keeps the rest; with nothing else queued
// (rest == 0) it is back to exactly 0 (tcp.freed_to_zero).
template <class W>
Claim<W> free_op(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	auto a = skb(in, "skb");
	c.assume(covers_both<W>(a, st.head) && wmem_ok<W>(st.wmem, st.rest, {a}));
	c.assume(zext_sub_fact<W>(st.wmem, a.truesize));
	const auto w0 = st.wmem;
	c.step(sub_exact<W>(st.wmem, a.truesize));
	c.step(sub_eq<W>(st.wmem, a.truesize));
	rules::free_skb<W>(a, st.wmem);
	wmem_parts<W>(c, st.wmem, st.rest, st.rest, W::zext(w0) - W::zext(a.truesize));
	return c;
}

// Socket::new_skb: an empty skb charging the head truesize.
template <class W>
Claim<W> new_skb(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	c.assume(wmem_ok<W>(st.wmem, st.rest, {}) && wmem_room<W>(st.wmem, st.head));
	c.assume(zext_add_fact<W>(st.wmem, st.head));
	const auto w0 = st.wmem;
	c.step(add_exact<W>(st.wmem, st.head));
	c.step(add_eq<W>(st.wmem, st.head));
	const rules::SkbAcct<W> s{W::k32(0), st.head};
	st.wmem = st.wmem + st.head;
	c.step(rules::truesize_covers<W>(s, st.head));
	wmem_parts<W>(c, st.wmem, st.rest + W::zext(s.truesize), st.rest + W::zext(st.head),
		      W::zext(w0) + W::zext(st.head));
	return c;
}

// The fill appends a frag of len bytes charging `charge`; sendmsg adds the
// same delta to sk_wmem_queued.
template <class W>
Claim<W> add_frag(const Point &, In<W> &in) {
	Claim<W> c;
	auto st = state(in, c);
	auto a = skb(in, "skb");
	auto len = in.u32("frag.len", small_u32());
	auto charge = in.u32("frag.charge", small_u32());
	c.assume(covers_both<W>(a, st.head) && wmem_ok<W>(st.wmem, st.rest, {a}));
	c.assume(W::uge(charge, len));	// clamp.charge_covers
	c.assume(W::ule(W::zext(a.len) + W::zext(len), W::k64(kIntMax)) && wmem_room<W>(st.wmem, charge));
	c.assume(zext_add_fact<W>(a.truesize, charge) && zext_add_fact<W>(a.len, len) &&
		 zext_add_fact<W>(st.wmem, charge));
	const auto before = a;
	const auto w0 = st.wmem;
	c.step(add_exact<W>(a.truesize, charge) && add_exact<W>(a.len, len) && add_exact<W>(st.wmem, charge));
	c.step(add_eq<W>(a.truesize, charge) && add_eq<W>(a.len, len) && add_eq<W>(st.wmem, charge));
	// The covering in integers first, one inequality at a time: old truesize
	// >= old len + head, plus the charge on both sides; then charge >= len.
	const auto lh = W::zext(a.len) + W::zext(st.head);
	c.step(W::uge(W::zext(a.truesize) + W::zext(charge), lh + W::zext(charge)));
	c.step(W::uge(lh + W::zext(charge), lh + W::zext(len)));
	c.step(W::uge(W::zext(a.truesize) + W::zext(charge), lh + W::zext(len)), kChain);
	a.len = a.len + len;
	a.truesize = a.truesize + charge;
	st.wmem = st.wmem + charge;
	c.step(rules::truesize_covers<W>(a, st.head), kChain);
	wmem_parts<W>(c, st.wmem, st.rest + W::zext(a.truesize),
		      st.rest + (W::zext(before.truesize) + W::zext(charge)), W::zext(w0) + W::zext(charge));
	return c;
}

std::vector<Point> once(const Policies &pol) {
	Point p;
	p.pol = pol;
	return {p};
}

}  // namespace

void add_truesize(std::vector<Lemma> &out) {
	const std::string dom = "any state satisfying the invariant: any u32 len/truesize/head truesize, "
				"sk_wmem_queued < INT_MAX, any rest of the queue (policy independent)";
	const std::string keeps = " keeps truesize >= head + len, sk_wmem_queued >= 0 and == sum of truesize, "
				  "without u32 wrap";
	out.push_back({"truesize.covers_split", "truesize", Inv::tcp_truesize_covers_bytes,
		       "rules::truesize_covers (64-bit sum) equals truesize >= len && truesize - len >= head "
		       "(the form the step lemmas use)",
		       "any u32 len, truesize, head truesize", 0.25, 0, once, covers_split<Sym>,
		       covers_split<Concrete>, nullptr});
	out.push_back({"truesize.zext_sub", "truesize", Inv::tcp_truesize_no_wrap,
		       "a >= b implies zext(a - b) == zext(a) - zext(b) (a fact the step lemmas are given)",
		       "any u32 a, b", 0.05, 0, once, zext_sub<Sym>, zext_sub<Concrete>, nullptr});
	out.push_back({"truesize.zext_add", "truesize", Inv::tcp_truesize_no_wrap,
		       "zext(a) + zext(b) <= U32_MAX implies zext(a + b) == zext(a) + zext(b)", "any u32 a, b",
		       0.05, 0, once, zext_add<Sym>, zext_add<Concrete>, nullptr});
	out.push_back({"truesize.trim_head", "truesize", Inv::tcp_truesize_covers_bytes,
		       "tcp_trim_head (partial ack)" + keeps, dom, 0.35, 0, once, trim_head<Sym>,
		       trim_head<Concrete>, nullptr});
	out.push_back({"truesize.fragment", "truesize", Inv::tcp_truesize_covers_bytes,
		       "tso_fragment / tcp_fragment" + keeps, dom, 1.50, 0, once, fragment<Sym>,
		       fragment<Concrete>, nullptr});
	out.push_back({"truesize.shift", "truesize", Inv::tcp_truesize_covers_bytes, "skb_shift" + keeps, dom,
		       0.70, 0, once, shift<Sym>, shift<Concrete>, nullptr});
	out.push_back({"truesize.free", "truesize", Inv::tcp_wmem_sum,
		       "tcp_wmem_free_skb keeps sk_wmem_queued >= 0 and == the rest's truesize (0 when "
		       "nothing else is queued)",
		       dom, 0.10, 0, once, free_op<Sym>, free_op<Concrete>, nullptr});
	out.push_back({"truesize.new_skb", "truesize", Inv::tcp_wmem_sum, "a new skb charging the head" + keeps,
		       dom, 0.05, 0, once, new_skb<Sym>, new_skb<Concrete>, nullptr});
	out.push_back({"truesize.add_frag", "truesize", Inv::tcp_truesize_covers_bytes,
		       "appending a frag whose charge >= its length" + keeps, dom, 0.25, 0, once, add_frag<Sym>,
		       add_frag<Concrete>, nullptr});
}

}  // namespace niov::smt::lemmas
