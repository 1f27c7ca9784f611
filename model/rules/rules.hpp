// The net_iov rules, written once over a word backend W (see word.hpp).
//
// Policies, direction and page_shift are plain C++ values: the engines
// enumerate them.  Everything data-dependent (sizes, addresses, lengths,
// offsets, truesize) is a W word, so the proofs instantiate exactly this code.
// Errors are carried as W::u32 holding the negative errno (0 = success); a
// chain of err_if() calls keeps the kernel's "first failing check wins" order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "config.hpp"
#include "errno.hpp"

namespace niov::rules {

template <class W>
struct Seg {
	typename W::u64 addr;
	typename W::u64 len;
};

template <class W>
typename W::u32 errno_word(int code) {
	return W::k32(static_cast<uint32_t>(-code));
}

// Keep an earlier error; otherwise fail with @code when @cond holds.
template <class W>
typename W::u32 err_if(typename W::u32 err, typename W::boolean cond, int code) {
	return W::select(err == W::k32(0) && cond, errno_word<W>(code), err);
}

template <class W>
typename W::boolean aligned(typename W::u64 x, typename W::u64 n) {
	return (x & (n - W::k64(1))) == W::k64(0);
}

template <class W>
typename W::u64 umin(typename W::u64 a, typename W::u64 b) {
	return W::select(W::ult(a, b), a, b);
}

template <class W>
typename W::u64 umax(typename W::u64 a, typename W::u64 b) {
	return W::select(W::ugt(a, b), a, b);
}

// Lowest set bit; 0 for 0.
template <class W>
typename W::u64 lowbit(typename W::u64 x) {
	return x & (~x + W::k64(1));
}

// --- sizing ---------------------------------------------------------------

// Does niov size @n align the dmabuf size and every segment?
template <class W>
typename W::boolean layout_aligned(TxNiov mode, typename W::u64 size,
				   std::span<const Seg<W>> segs, typename W::u64 n) {
	auto ok = aligned<W>(size, n);
	for (const auto &s : segs) {
		ok = ok && aligned<W>(s.len, n);
		if (mode != TxNiov::autosize_noaddr)
			ok = ok && aligned<W>(s.addr, n);
	}
	return ok;
}

// The kernel's loop (seed 000 patch 6): halve from the cap (2 MiB, policy
// tx_niov_max) while misaligned.  At most max_shift - page_shift
// iterations, unrolled so W can be symbolic.
template <class W>
typename W::u64 tx_size_loop(TxNiov mode, unsigned page_shift, typename W::u64 size,
			     std::span<const Seg<W>> segs, unsigned max_shift = 21) {
	const auto page = W::k64(uint64_t{1} << page_shift);
	auto n = W::k64(uint64_t{1} << max_shift);
	for (unsigned step = page_shift; step < max_shift; ++step) {
		auto halve = W::ugt(n, page) && !layout_aligned<W>(mode, size, segs, n);
		if (W::certainly(!halve))
			break;
		n = W::select(halve, W::lshr(n, W::k64(1)), n);
	}
	return n;
}

// Declarative form: the largest power of two <= the cap dividing the size
// and every (address and) length, never below PAGE_SIZE.
template <class W>
typename W::u64 tx_size_decl(TxNiov mode, unsigned page_shift, typename W::u64 size,
			     std::span<const Seg<W>> segs, unsigned max_shift = 21) {
	auto bits = size | W::k64(uint64_t{1} << max_shift);
	for (const auto &s : segs) {
		bits = bits | s.len;
		if (mode != TxNiov::autosize_noaddr)
			bits = bits | s.addr;
	}
	return umax<W>(lowbit<W>(bits), W::k64(uint64_t{1} << page_shift));
}

// ilog2 of a power of two.
template <class W>
typename W::u64 log2_pow2(typename W::u64 n) {
	return W::ctz64(n);
}

// The niov shift a bind asks for (RULES.md steps 1-2).  The model's bind and
// the proofs both call these, so the shift the lemmas reason about is the one
// the tests and fuzzers run.
template <class W>
typename W::u64 tx_niov_shift(const Policies &pol, unsigned page_shift, typename W::u64 size,
			      std::span<const Seg<W>> segs) {
	if (pol.tx_niov == TxNiov::page)
		return W::k64(page_shift);
	return log2_pow2<W>(tx_size_loop<W>(pol.tx_niov, page_shift, size, segs, pol.tx_niov_max_shift));
}

// RX: the accepted rx-buf-size, else PAGE_SIZE.
template <class W>
typename W::u64 rx_niov_shift(unsigned page_shift, typename W::boolean present,
			      typename W::u32 value) {
	return W::select(present, log2_pow2<W>(W::zext(value)), W::k64(page_shift));
}

// zcrx: rx_buf_len, 0 meaning PAGE_SIZE.
template <class W>
typename W::u64 zcrx_niov_shift(unsigned page_shift, typename W::u32 len) {
	return W::select(len == W::k32(0), W::k64(page_shift), log2_pow2<W>(W::zext(len)));
}

// --- bind -------------------------------------------------------------------

// Step 1: the netlink attribute.  Returns the errno; the shift it implies is
// log2_pow2(value) when accepted.
template <class W>
typename W::u32 rx_attr_errno(const Policies &pol, Dir dir, unsigned page_shift,
			      typename W::boolean present, typename W::u32 value) {
	auto err = W::k32(0);
	const bool known = pol.rx_attr == RxAttr::present && dir == Dir::rx;
	if (!known)
		return err_if<W>(err, present, kEINVAL);
	const auto bad = value == W::k32(0) || !W::is_pow2(value) ||
			 W::ult(value, W::k32(uint32_t{1} << page_shift));
	return err_if<W>(err, present && bad, kEINVAL);
}

// Step 0: a command the kernel does not have.  6.12 (paths=rx) has no
// bind-tx netlink command (genetlink answers -EOPNOTSUPP for an unknown
// command) and no io_uring zcrx registration (io_uring_register answers
// -EINVAL for an unknown opcode).  A plain C++ value: the direction and the
// policy are parameters, never data.
inline int path_errno(const Policies &pol, Dir dir) {
	if (pol.paths == Paths::all || dir == Dir::rx)
		return 0;
	return dir == Dir::tx ? -kEOPNOTSUPP : -kEINVAL;
}

// How many niovs the bind creates.  The freelist bind: the dmabuf size >>
// shift.  The gen_pool bind gives each sg entry len >> shift niovs (and
// before the May 2026 fix drops the rest of an entry that is not whole
// niovs): for an honest exporter that is size >> shift again, but an RX
// table that does not add up gives its own sum, and before the fix the
// niovs' dmabuf offsets stop matching their index (RULES.md step 6).  A TX
// bind of the fixed gen_pool stays at tx_vec's size >> shift (the kernel
// would write past tx_vec for more: kernel-tree mode does not run those).
template <class W>
typename W::u64 num_niovs(const Policies &pol, Dir dir, typename W::u64 size, std::span<const Seg<W>> segs,
			  typename W::u64 shift) {
	if (pol.bind == BindStyle::freelist || (pol.bind == BindStyle::genpool && dir != Dir::rx))
		return W::lshr(size, shift);
	auto sum = W::k64(0);
	for (const auto &s : segs)
		sum = sum + W::lshr(s.len, shift);
	return sum;
}

// Steps 3-6 of RULES.md for a niov size n = 1 << shift.
template <class W>
typename W::u32 bind_errno(const Policies &pol, Dir dir, typename W::u64 size,
			   std::span<const Seg<W>> segs, typename W::u64 shift) {
	const auto n = W::shl(W::k64(1), shift);
	auto err = W::k32(0);
	const bool freelist = pol.bind == BindStyle::freelist;
	const bool checked = pol.bind != BindStyle::genpool_unchecked;
	const bool size_checked = freelist || (checked && dir == Dir::tx);
	if (size_checked)
		err = err_if<W>(err, !aligned<W>(size, n), kEINVAL);
	const auto count = num_niovs<W>(pol, dir, size, segs, shift);
	if (freelist)
		err = err_if<W>(err, W::ugt(count, W::k64(UINT32_MAX)), kE2BIG);
	err = err_if<W>(err, W::ugt(count, W::k64(kMaxNiovTable)), kENOMEM);
	if (!checked)
		return err;
	for (const auto &s : segs) {
		auto bad = !aligned<W>(s.len, n);
		if (freelist)
			bad = bad || !aligned<W>(s.addr, n);
		err = err_if<W>(err, bad, kEINVAL);
	}
	return err;
}

// mp_dmabuf_devmem_init: the page_pool order must match the niov size.
// Shared by rx_queue_errno and the model's pp_init answer.
template <class W>
typename W::u32 pp_order_errno(unsigned page_shift, typename W::u64 niov_shift, typename W::u64 order) {
	return err_if<W>(W::k32(0), order != niov_shift - W::k64(page_shift), kE2BIG);
}

// RULES.md step 7, opening an RX queue on the binding: the device's buffer
// size support, then mp_dmabuf_devmem_init's page_pool order check.
// @order is the driver's page_pool order; rx_queue_order() gives the default.
// MAX_PAGE_ORDER is a word (not a C++ parameter) so one proof covers every value.
template <class W>
typename W::u32 rx_queue_errno(Device dev, unsigned page_shift, typename W::u64 max_page_order,
			       typename W::u64 niov_shift, typename W::u64 order) {
	const auto psh = W::k64(page_shift);
	const auto rx_page_size = W::select(niov_shift == psh, W::k64(0), W::shl(W::k64(1), niov_shift));
	const bool supports = dev == Device::none || dev == Device::mlx5 || dev == Device::bnxt;
	auto err = W::k32(0);
	if (!supports)
		return err_if<W>(err, rx_page_size != W::k64(0), kEOPNOTSUPP);
	const uint64_t lo = dev == Device::bnxt ? uint64_t{1} << std::min(page_shift, 15u)
						: uint64_t{1} << page_shift;
	const auto hi = dev == Device::bnxt ? W::k64(uint64_t{1} << 15)
					    : W::shl(W::k64(uint64_t{1} << page_shift), max_page_order);
	const auto bad = W::ult(rx_page_size, W::k64(lo)) || W::ugt(rx_page_size, hi);
	err = err_if<W>(err, rx_page_size != W::k64(0) && bad, kERANGE);
	return err_if<W>(err, pp_order_errno<W>(page_shift, niov_shift, order) != W::k32(0), kE2BIG);
}

// get_order() of the buffer size the driver uses for this binding.
template <class W>
typename W::u64 rx_queue_order(Device dev, unsigned page_shift, typename W::u64 niov_shift) {
	const auto psh = W::k64(page_shift);
	// bnxt's default buffer is min(PAGE_SIZE, 32 KiB): order 0 either way.
	(void)dev;
	return W::select(W::ugt(niov_shift, psh), niov_shift - psh, W::k64(0));
}

// io_uring zcrx rx_buf_len: shape, area contiguity, then the no-device case.
template <class W>
typename W::u32 zcrx_errno(unsigned page_shift, typename W::u32 len, typename W::u64 area_max_shift,
			   bool has_device) {
	auto err = W::k32(0);
	const auto page = W::k32(uint32_t{1} << page_shift);
	err = err_if<W>(err, len != W::k32(0) && (!W::is_pow2(len) || W::ult(len, page)), kEINVAL);
	const auto shift = zcrx_niov_shift<W>(page_shift, len);
	err = err_if<W>(err, W::ugt(shift, area_max_shift), kERANGE);
	if (!has_device)
		err = err_if<W>(err, shift != W::k64(page_shift), kEOPNOTSUPP);
	return err;
}

// --- addressing -------------------------------------------------------------

template <class W>
struct Lookup {
	typename W::boolean ok;	 // false: the kernel returns NULL (-EFAULT)
	typename W::u64 idx;
	typename W::u64 off;
	typename W::u64 size;
};

// net_devmem_get_niov_at with granularity 1 << gran_shift.
template <class W>
Lookup<W> get_niov_at(typename W::u64 dmabuf_size, typename W::u64 gran_shift,
		      typename W::u64 virt) {
	const auto gran = W::shl(W::k64(1), gran_shift);
	const auto off = virt & (gran - W::k64(1));
	return {W::ult(virt, dmabuf_size), W::lshr(virt, gran_shift), off, gran - off};
}

// The granularity get_niov_at uses: PAGE_SIZE (policy lookup=page) or the
// binding's niov size.
template <class W>
typename W::u64 lookup_shift(const Policies &pol, unsigned page_shift, typename W::u64 niov_shift) {
	return pol.lookup == niov::Lookup::page ? W::k64(page_shift) : niov_shift;
}

template <class W>
struct Addr {
	typename W::boolean ok;
	typename W::u64 dma;
};

// The declarative byte map: dmabuf offset -> DMA address, segments laid out
// back to back from offset 0.  Offsets past the last segment are unmapped.
// The scan is a fold of byte_map_step (segment at dmabuf offset @start) so
// the proofs can reason about one segment and cover tables of any length.
template <class W>
void byte_map_step(Addr<W> &r, typename W::u64 &start, const Seg<W> &s, typename W::u64 virt) {
	const auto hit = !r.ok && W::uge(virt, start) && W::ult(virt - start, s.len);
	r.dma = W::select(hit, s.addr + (virt - start), r.dma);
	r.ok = r.ok || hit;
	start = start + s.len;
}

template <class W>
Addr<W> byte_map(std::span<const Seg<W>> segs, typename W::u64 virt) {
	auto start = W::k64(0);
	Addr<W> r{W::kb(false), W::k64(0)};
	for (const auto &s : segs)
		byte_map_step<W>(r, start, s, virt);
	return r;
}

// The niov table as the kernel builds it: segment after segment, len >> shift
// niovs each, niov j of a segment at addr + (j << shift), none past num_niovs.
// A fold of niov_dma_step (segment whose first niov is @first), as byte_map.
template <class W>
void niov_dma_step(Addr<W> &r, typename W::u64 &first, const Seg<W> &s, typename W::u64 shift,
		   typename W::u64 idx) {
	const auto cnt = W::lshr(s.len, shift);
	const auto hit = !r.ok && W::uge(idx, first) && W::ult(idx - first, cnt);
	r.dma = W::select(hit, s.addr + W::shl(idx - first, shift), r.dma);
	r.ok = r.ok || hit;
	first = first + cnt;
}

template <class W>
Addr<W> niov_dma(std::span<const Seg<W>> segs, typename W::u64 shift,
		 typename W::u64 num_niovs, typename W::u64 idx) {
	auto first = W::k64(0);
	Addr<W> r{W::kb(false), W::k64(0)};
	for (const auto &s : segs)
		niov_dma_step<W>(r, first, s, shift, idx);
	r.ok = r.ok && W::ult(idx, num_niovs);
	return r;
}

// The dmabuf offset of niov @idx (net_iov_virtual_addr): the freelist bind
// numbers niovs across the whole dmabuf (idx << shift); a gen_pool chunk
// starts at the dmabuf offset of its sg entry, the sum of the lengths before
// it, so niov j of a chunk is there + (j << shift).  The two agree whenever
// every sg length is a multiple of the niov size.  A fold of niov_virt_step,
// as niov_dma.
template <class W>
void niov_virt_step(Addr<W> &r, typename W::u64 &first, typename W::u64 &start, const Seg<W> &s,
		    typename W::u64 shift, typename W::u64 idx) {
	const auto cnt = W::lshr(s.len, shift);
	const auto hit = !r.ok && W::uge(idx, first) && W::ult(idx - first, cnt);
	r.dma = W::select(hit, start + W::shl(idx - first, shift), r.dma);
	r.ok = r.ok || hit;
	first = first + cnt;
	start = start + s.len;
}

template <class W>
Addr<W> niov_virt(const Policies &pol, std::span<const Seg<W>> segs, typename W::u64 shift,
		  typename W::u64 num_niovs, typename W::u64 idx) {
	if (pol.bind == BindStyle::freelist)
		return {W::ult(idx, num_niovs), W::shl(idx, shift)};
	auto first = W::k64(0);
	auto start = W::k64(0);
	Addr<W> r{W::kb(false), W::k64(0)};
	for (const auto &s : segs)
		niov_virt_step<W>(r, first, start, s, shift, idx);
	r.ok = r.ok && W::ult(idx, num_niovs);
	return r;
}

// --- TX fill ----------------------------------------------------------------

// The length of one devmem frag: zerocopy_fill_skb_from_devmem's clamps.
template <class W>
typename W::u64 frag_len(const Policies &pol, typename W::u64 niov_rem,
			 typename W::u64 length, typename W::u64 iov_rem,
			 typename W::u64 dev_max_frag) {
	auto size = umin<W>(umin<W>(niov_rem, length), iov_rem);
	if (pol.max_frag == MaxFrag::device)
		size = umin<W>(size, dev_max_frag);
	return size;
}

// What skb_add_rx_frag_netmem charges for a frag of @len bytes.
template <class W>
typename W::u32 frag_charge(const Policies &pol, unsigned page_shift, typename W::u32 len) {
	switch (pol.truesize) {
	case Truesize::page:
		return W::k32(uint32_t{1} << page_shift);
	case Truesize::len:
		return len;
	case Truesize::zero:
		break;
	}
	return W::k32(0);
}

// One iteration of the fill loop, everything but the iterator: look the
// offset up, clamp, store the length as the frag's u32 and charge it.  @size
// is the untruncated length the iterator and `length` advance by.
template <class W>
struct FillFrag {
	typename W::boolean ok;	 // false: the lookup failed (-EFAULT)
	typename W::u64 idx;
	typename W::u32 off;
	typename W::u32 len;
	typename W::u32 charge;
	typename W::u64 size;
};

template <class W>
FillFrag<W> fill_frag(const Policies &pol, unsigned page_shift, typename W::u64 dmabuf_size,
		      typename W::u64 gran_shift, typename W::u64 virt, typename W::u64 length,
		      typename W::u64 iov_rem, typename W::u64 dev_max_frag) {
	const auto l = get_niov_at<W>(dmabuf_size, gran_shift, virt);
	const auto size = frag_len<W>(pol, l.size, length, iov_rem, dev_max_frag);
	const auto len = W::trunc(size);
	return {l.ok, l.idx, W::trunc(l.off), len, frag_charge<W>(pol, page_shift, len), size};
}

// --- TCP accounting ---------------------------------------------------------
// truesize and len are u32; sk_wmem_queued is an int held as u32 bits.

template <class W>
struct SkbAcct {
	typename W::u32 len;
	typename W::u32 truesize;
};

// I_T: truesize covers the head and every payload byte, computed without wrap.
template <class W>
typename W::boolean truesize_covers(SkbAcct<W> s, typename W::u32 head) {
	return W::uge(W::zext(s.truesize), W::zext(s.len) + W::zext(head));
}

// tcp_trim_head: n payload bytes leave the skb, truesize and sk_wmem_queued
// drop by n.
template <class W>
void trim_head(SkbAcct<W> &s, typename W::u32 &wmem, typename W::u32 n) {
	s.len = s.len - n;
	s.truesize = s.truesize - n;
	wmem = wmem - n;
}

// tso_fragment / tcp_fragment at @at: the tail moves to a new skb carrying a
// fresh head truesize; the old skb gives up the moved bytes.
template <class W>
SkbAcct<W> fragment(SkbAcct<W> &s, typename W::u32 &wmem, typename W::u32 at,
		    typename W::u32 head) {
	const auto nlen = s.len - at;
	wmem = wmem + head;
	SkbAcct<W> buff{nlen, head + nlen};
	s.len = at;
	s.truesize = s.truesize - nlen;
	return buff;
}

// skb_shift of n bytes from @from onto @to (tcp_grow_skb, SACK).
template <class W>
void shift(SkbAcct<W> &to, SkbAcct<W> &from, typename W::u32 n) {
	to.len = to.len + n;
	to.truesize = to.truesize + n;
	from.len = from.len - n;
	from.truesize = from.truesize - n;
}

// tcp_wmem_free_skb.
template <class W>
void free_skb(const SkbAcct<W> &s, typename W::u32 &wmem) {
	wmem = wmem - s.truesize;
}

// --- devices ----------------------------------------------------------------

// The single length field a device writes for a frag (gve: split instead).
template <class W>
typename W::u32 desc_field(Device dev, typename W::u32 len) {
	switch (dev) {
	case Device::bnxt:  // written as len << 16 into a u32, read back as 16 bits
		return W::lshr(W::shl(len, W::k32(16)), W::k32(16));
	case Device::fbnic:
		return len & W::k32(0xffff);
	default:
		return len;
	}
}

// Does the device carry a frag of @len bytes exactly (no truncation, no drop)?
template <class W>
typename W::boolean desc_exact(Device dev, typename W::u32 len) {
	if (dev == Device::fbnic)
		return W::ule(len, W::k32(0xffff));
	if (dev == Device::gve)
		return W::kb(true);  // split into 16383-byte descriptors
	return desc_field<W>(dev, len) == len;
}

}  // namespace niov::rules
