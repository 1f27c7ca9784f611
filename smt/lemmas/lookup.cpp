// lookup.*: get_niov_at and the niov table for every offset below the dmabuf
// size, under the bind preconditions.  The niov shift is enumerated over
// every shift a TX bind can pick (sizing.pow2_range); bind_errno must accept
// the dmabuf size (and, where segments appear, the table) at that shift, so
// the lemmas hold whichever shift the sizing chose.
//
// The byte map is proved for any number of segments by induction over the
// scans of rules::byte_map and rules::niov_dma (folds of byte_map_step and
// niov_dma_step).  The scan invariant J after the segments covering dmabuf
// bytes [0, start), whose niovs are [0, first):
//   start == first << shift (no wrap), bytes.ok == niov.ok,
//   niov.ok == (idx < first), bytes.ok -> bytes.dma == niov.dma + off.
// lookup.scan_*: J holds for the empty scan and one more segment (length
// aligned, no wrap) keeps each part of it; lookup.byte_map_close: J with
// start == dmabuf size (an honest table) gives the byte-map goal.
// lookup.byte_map checks the whole functions directly on one symbolic segment.
#include "common.hpp"
#include "families.hpp"

namespace niov::smt::lemmas {

namespace {

template <class W>
struct Base {
	typename W::u64 size;
	typename W::u64 virt;
	typename W::u64 shift;
	typename W::u64 n;
	typename W::u64 gran;
	typename W::u64 num;
	rules::Lookup<W> l;
};

// An offset below a dmabuf size the bind accepts at this shift (bind_errno
// with no segments: exactly its size checks).
template <class W>
Base<W> base(const Point &p, In<W> &in, Claim<W> &c) {
	const uint64_t ps = uint64_t{1} << p.page_shift;
	auto size = in.u64("size", Dom::list({0, ps, 1 << 21, 3 << 21, 4 << 21, uint64_t{1} << 40}));
	auto virt = in.u64("virt", Dom::steps(0, ps / 4, 1 << 10));
	const auto shift = tx_shift<W>(p);
	const std::vector<rules::Seg<W>> none;
	c.assume(rules::bind_errno<W>(p.pol, Dir::tx, size, span_of(none), shift) == W::k32(0));
	c.assume(W::ult(virt, size));
	const auto gran = rules::lookup_shift<W>(p.pol, p.page_shift, shift);
	return {size, virt, shift, W::shl(W::k64(1), shift), gran, W::lshr(size, shift),
		rules::get_niov_at<W>(size, gran, virt)};
}

template <class W>
Claim<W> index_in_table(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = base(p, in, c);
	c.prove(s.l.ok && W::ult(s.l.idx, s.num));
	return c;
}

template <class W>
Claim<W> off_size(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = base(p, in, c);
	c.prove(s.l.off + s.l.size == s.n && W::uge(s.l.size, W::k64(1)));
	return c;
}

// Index and offset put back together give the offset, without wrap.
template <class W>
Claim<W> no_wrap(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = base(p, in, c);
	const auto start = W::shl(s.l.idx, s.gran);
	c.prove(W::lshr(start, s.gran) == s.l.idx && no_wrap_add<W>(start, s.l.off) && start + s.l.off == s.virt);
	return c;
}

// A niov of a segment (length aligned, not wrapping the DMA space) has a DMA
// range that does not wrap and stays inside its segment.
template <class W>
Claim<W> niov_range(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto shift = tx_shift<W>(p);
	const auto n = W::shl(W::k64(1), shift);
	const auto seg = seg_table<W>(in, 1, Dom::list({0, uint64_t{1} << 30, UINT64_MAX - (1 << 21) + 1}),
				      Dom::list({0, 1 << 21, 2 << 21}))[0];
	auto first = in.u64("first", Dom::list({0, 1, 5}));
	auto idx = in.u64("idx", Dom::upto(16));
	c.assume(rules::aligned<W>(seg.len, n) && no_wrap_add<W>(seg.addr, seg.len));
	rules::Addr<W> r{W::kb(false), W::k64(0)};
	auto next = first;
	rules::niov_dma_step<W>(r, next, seg, shift, idx);
	c.prove(!r.ok || no_wrap_add<W>(r.dma, n - W::k64(1)));
	return c;
}

// The whole rules::byte_map / rules::niov_dma on an honest table.
template <class W>
Claim<W> byte_map(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto s = base(p, in, c);
	const uint64_t ps = uint64_t{1} << p.page_shift;
	const auto segs = seg_table<W>(in, p.nsegs, Dom::list({0, uint64_t{1} << 30, (uint64_t{1} << 30) + ps}),
				       Dom::list({0, ps, 1 << 21, 2 << 21}));
	c.assume(honest_table<W>(s.size, segs));
	c.assume(rules::bind_errno<W>(p.pol, Dir::tx, s.size, span_of(segs), s.shift) == W::k32(0));
	const auto bytes = rules::byte_map<W>(span_of(segs), s.virt);
	const auto niov = rules::niov_dma<W>(span_of(segs), s.shift, s.num, s.l.idx);
	c.prove(bytes.ok && niov.ok && niov.dma + s.l.off == bytes.dma);
	return c;
}

template <class W>
struct Scan {
	rules::Addr<W> bytes;
	typename W::u64 start;
	rules::Addr<W> niov;
	typename W::u64 first;
};

template <class W>
Scan<W> scan_state(In<W> &in) {
	auto bok = in.flag("bytes.ok", Dom::list({0, 1}));
	auto bdma = in.u64("bytes.dma", Dom::list({0, 1 << 21}));
	auto start = in.u64("start", Dom::list({0, 1 << 21, 4 << 21}));
	auto nok = in.flag("niov.ok", Dom::list({0, 1}));
	auto ndma = in.u64("niov.dma", Dom::list({0, 1 << 21}));
	auto first = in.u64("first", Dom::list({0, 1, 4}));
	return {{bok, bdma}, start, {nok, ndma}, first};
}

template <class W>
typename W::boolean scan_inv(const Scan<W> &s, const Base<W> &b) {
	return W::shl(s.first, b.shift) == s.start && W::lshr(s.start, b.shift) == s.first &&
	       s.bytes.ok == s.niov.ok && s.niov.ok == W::ult(b.l.idx, s.first) &&
	       (!s.bytes.ok || s.bytes.dma == s.niov.dma + b.l.off);
}

// One more segment (length aligned to the niov size, not wrapping) after a
// scan state satisfying J: the scan's two halves advance together.  Returns
// the state after the step; @piece picks which part of J to prove (the parts
// are separate lemmas: each is a much smaller query than their conjunction).
enum class Piece { start, bytes_ok, niov_ok, dma };

template <class W>
Claim<W> scan_step(const Point &p, In<W> &in, Piece piece) {
	Claim<W> c;
	const auto b = base(p, in, c);
	auto s = scan_state(in);
	const uint64_t ps = uint64_t{1} << p.page_shift;
	const auto seg = seg_table<W>(in, 1, Dom::list({0, uint64_t{1} << 30}), Dom::list({0, ps, 1 << 21}))[0];
	c.assume(scan_inv<W>(s, b));
	c.assume(rules::aligned<W>(seg.len, b.n) && no_wrap_add<W>(s.start, seg.len) &&
		 no_wrap_add<W>(seg.addr, seg.len));
	// lookup.no_wrap's conclusion at the same point: proved there, a hint here.
	c.assume(W::shl(b.l.idx, b.gran) + b.l.off == b.virt);
	rules::byte_map_step<W>(s.bytes, s.start, seg, b.virt);
	rules::niov_dma_step<W>(s.niov, s.first, seg, b.shift, b.l.idx);
	switch (piece) {
	case Piece::start: {
		// J also holds for the empty scan.
		const Scan<W> empty{{W::kb(false), W::k64(0)}, W::k64(0), {W::kb(false), W::k64(0)}, W::k64(0)};
		c.prove(scan_inv<W>(empty, b));
		c.prove(W::shl(s.first, b.shift) == s.start && W::lshr(s.start, b.shift) == s.first);
		break;
	}
	case Piece::bytes_ok:
		c.prove(s.bytes.ok == s.niov.ok);
		break;
	case Piece::niov_ok:
		c.prove(s.niov.ok == W::ult(b.l.idx, s.first));
		break;
	case Piece::dma:
		c.prove(!s.bytes.ok || s.bytes.dma == s.niov.dma + b.l.off);
		break;
	}
	return c;
}

template <class W>
Claim<W> scan_start(const Point &p, In<W> &in) {
	return scan_step(p, in, Piece::start);
}
template <class W>
Claim<W> scan_bytes_ok(const Point &p, In<W> &in) {
	return scan_step(p, in, Piece::bytes_ok);
}
template <class W>
Claim<W> scan_niov_ok(const Point &p, In<W> &in) {
	return scan_step(p, in, Piece::niov_ok);
}
template <class W>
Claim<W> scan_dma(const Point &p, In<W> &in) {
	return scan_step(p, in, Piece::dma);
}

// niov_dma's result is the scan's, limited to idx < num_niovs.
template <class W>
Claim<W> byte_map_close(const Point &p, In<W> &in) {
	Claim<W> c;
	const auto b = base(p, in, c);
	const auto s = scan_state(in);
	c.assume(scan_inv<W>(s, b) && s.start == b.size);
	c.prove(s.bytes.ok && s.niov.ok && W::ult(b.l.idx, b.num) && s.niov.dma + b.l.off == s.bytes.dma);
	return c;
}

std::optional<Scenario> lookup_scenario(const Point &p, In<Concrete> &in) {
	Claim<Concrete> c;
	const auto b = base(p, in, c);
	std::vector<DmaSeg> segs;
	if (p.nsegs) {
		for (const auto &g : seg_table<Concrete>(in, p.nsegs, {}, {}))
			segs.push_back({g.addr, g.len});
	} else {
		segs.push_back({uint64_t{1} << 30, b.size});  // one 1 GiB-aligned segment
	}
	Scenario sc = tx_scenario(p, b.size, std::move(segs));
	Op send;
	send.iov.push_back({b.virt, 1});  // one byte at the offset the lemma broke on
	sc.ops.push_back(send);
	Op free;
	free.kind = OpKind::free;
	sc.ops.push_back(free);
	return sc;
}

constexpr unsigned kLookupSegs = 1;

std::vector<Point> lookup_points(const Policies &pol) { return each_shift(each_page(pol)); }
std::vector<Point> seg_points(const Policies &pol) { return each_shift(each_page(pol, kLookupSegs)); }

constexpr uint32_t kLookupReads = kReadsPageShift | kReadsNiovShift | kReadsLookup | kReadsBind;

}  // namespace

void add_lookup(std::vector<Lemma> &out) {
	const std::string dom = "page_shift 12/14/16 x every niov shift the bind can pick x any dmabuf size "
				"the bind accepts x every offset below it";
	out.push_back({"lookup.index_in_table", "lookup", Inv::lookup_index_in_table,
		       "get_niov_at finds a niov, and its index is below the niov count", dom, 0.05, kLookupReads,
		       lookup_points, index_in_table<Sym>, index_in_table<Concrete>, lookup_scenario});
	out.push_back({"lookup.off_size", "lookup", Inv::lookup_off_size,
		       "get_niov_at: off + size == niov size and size >= 1", dom, 0.05, kLookupReads, lookup_points,
		       off_size<Sym>, off_size<Concrete>, lookup_scenario});
	out.push_back({"lookup.no_wrap", "lookup", Inv::lookup_byte_map,
		       "(idx << granularity) + off == offset, computed without 64-bit wrap", dom, 0.05, kLookupReads,
		       lookup_points, no_wrap<Sym>, no_wrap<Concrete>, lookup_scenario});
	out.push_back({"lookup.niov_range", "lookup", Inv::bind_niov_dma,
		       "every niov's DMA range lies inside its segment and does not wrap 64 bits",
		       "page_shift 12/14/16 x every niov shift x any segment (length aligned, not wrapping)",
		       0.75, kReadsPageShift | kReadsNiovShift, [](const Policies &pol) {
			       return each_shift(each_page(pol));
		       },
		       niov_range<Sym>, niov_range<Concrete>, nullptr});
	out.push_back({"lookup.byte_map", "lookup", Inv::lookup_byte_map,
		       "the found niov's DMA address + off is the byte map at the offset (the whole "
		       "functions, one symbolic segment)",
		       dom + ", an honest one-segment table", 0.45, kLookupReads | kReadsSegs, seg_points,
		       byte_map<Sym>, byte_map<Concrete>, lookup_scenario});
	const std::string step = dom + ", any scan state J, one more segment";
	out.push_back({"lookup.scan_start", "lookup", Inv::lookup_byte_map,
		       "byte-map scan invariant J: holds for no segments; one more segment keeps start == "
		       "first << shift",
		       step, 0.45, kLookupReads, lookup_points, scan_start<Sym>, scan_start<Concrete>, nullptr});
	out.push_back({"lookup.scan_bytes_ok", "lookup", Inv::lookup_byte_map,
		       "J: one more segment keeps byte_map's found == niov_dma's found", step, 1.50, kLookupReads,
		       lookup_points, scan_bytes_ok<Sym>, scan_bytes_ok<Concrete>, nullptr});
	out.push_back({"lookup.scan_niov_ok", "lookup", Inv::lookup_byte_map,
		       "J: one more segment keeps niov_dma's found == (index < first)", step, 3.00, kLookupReads,
		       lookup_points, scan_niov_ok<Sym>, scan_niov_ok<Concrete>, nullptr});
	out.push_back({"lookup.scan_dma", "lookup", Inv::lookup_byte_map,
		       "J: one more segment keeps byte map == niov DMA + off wherever found", step, 4.50,
		       kLookupReads, lookup_points, scan_dma<Sym>, scan_dma<Concrete>, nullptr});
	out.push_back({"lookup.byte_map_close", "lookup", Inv::lookup_byte_map,
		       "the scan invariant over an honest table gives niov DMA + off == byte map",
		       dom + ", any scan state", 0.20, kLookupReads, lookup_points, byte_map_close<Sym>,
		       byte_map_close<Concrete>, lookup_scenario});
}

}  // namespace niov::smt::lemmas
