// Pieces the lemma bodies share: symbolic segment tables, the bind
// preconditions, configuration domains and the scenario a counterexample
// becomes.  Everything here is generic over W like the rules themselves.
#pragma once

#include <string>
#include <vector>

#include "../lemma.hpp"
#include "rules.hpp"

namespace niov::smt::lemmas {

inline constexpr unsigned kPageShifts[] = {12, 14, 16};
inline constexpr Device kDevices[] = {Device::none, Device::mlx5, Device::gve, Device::fbnic, Device::bnxt};
inline constexpr uint32_t kIntMax = 0x7fffffff;

// A segment table of @n symbolic entries seg0.addr, seg0.len, ...  A zero
// length entry adds nothing to any rule (sizing, byte map, niov table), so n
// entries cover every table of at most n.
template <class W>
std::vector<rules::Seg<W>> seg_table(In<W> &in, unsigned n, const Dom &addr, const Dom &len) {
	std::vector<rules::Seg<W>> v;
	for (unsigned i = 0; i < n; ++i) {
		const std::string p = "seg" + std::to_string(i);
		auto a = in.u64(p + ".addr", addr);
		auto l = in.u64(p + ".len", len);
		v.push_back({a, l});
	}
	return v;
}

template <class W>
typename W::boolean no_wrap_add(const typename W::u64 &a, const typename W::u64 &b) {
	return W::uge(a + b, a);
}

// The exporter's sg table covers the dmabuf exactly, without wrapping
// (bind.sg_covers_dmabuf) and no segment wraps the DMA address space.
template <class W>
typename W::boolean honest_table(const typename W::u64 &size, const std::vector<rules::Seg<W>> &segs) {
	auto ok = W::kb(true);
	auto total = W::k64(0);
	for (const auto &s : segs) {
		ok = ok && no_wrap_add<W>(total, s.len) && no_wrap_add<W>(s.addr, s.len);
		total = total + s.len;
	}
	return ok && total == size;
}

template <class W>
std::span<const rules::Seg<W>> span_of(const std::vector<rules::Seg<W>> &v) {
	return {v.data(), v.size()};
}

// The binding's niov shift: the point's enumerated value (each_shift).
template <class W>
typename W::u64 tx_shift(const Point &p) {
	return W::k64(p.niov_shift);
}

template <class W>
typename W::u64 device_max_frag(const Point &p) {
	Config c;
	c.device = p.dev;
	return W::k64(c.device_tx_max_frag());
}

// Instances of truesize.zext_sub / truesize.zext_add (proved there for all
// words): valid formulas, handed to the solver as hints so it need not
// re-derive them inside a larger query.
template <class W>
typename W::boolean zext_sub_fact(const typename W::u32 &a, const typename W::u32 &b) {
	return !W::uge(a, b) || W::zext(a - b) == W::zext(a) - W::zext(b);
}

template <class W>
typename W::boolean zext_add_fact(const typename W::u32 &a, const typename W::u32 &b) {
	return !W::ule(W::zext(a) + W::zext(b), W::k64(UINT32_MAX)) || W::zext(a + b) == W::zext(a) + W::zext(b);
}

// Configuration domains.
std::vector<Point> each_page(const Policies &pol, unsigned nsegs = 0);
std::vector<Point> each_page_device(const Policies &pol);
std::vector<Point> only_autosize(std::vector<Point> v);	// tx_niov != page
// Each point once per niov shift a TX bind can pick under its policies:
// PAGE_SHIFT for tx_niov=page, PAGE_SHIFT..21 otherwise (sizing.pow2_range).
std::vector<Point> each_shift(const std::vector<Point> &v);

// A TX scenario under @p's policies: the segments, dmabuf size and sends
// given; the preset is tx-autosize with @p's policies as overrides.
Scenario tx_scenario(const Point &p, uint64_t dmabuf_size, std::vector<DmaSeg> segs);
// One segment at a 1 GiB-aligned address whose length is an odd multiple of
// 1 << shift covering @min_len, so TX sizing picks exactly that shift.
std::vector<DmaSeg> segment_for_shift(unsigned shift, uint64_t min_len);

}  // namespace niov::smt::lemmas
