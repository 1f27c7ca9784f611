#include "gen_sg.hpp"

#include <algorithm>

#include "boundary.hpp"

namespace niov::props {

namespace {

// Physical memory: a base frame somewhere in the low 40 bits, then each
// piece above the previous one after a random gap.  Gaps shrink to 0, so a
// shrunk table is contiguous, never aliased (real pages are distinct).
uint64_t first_frame(uint64_t align) {
	return *uniform<uint64_t>(1, (uint64_t{1} << 36) / align + 1) * align;
}

uint64_t next_frame(uint64_t prev_end, uint64_t align) {
	const uint64_t up = (prev_end + align - 1) / align * align;
	return up + (draw_choice({1, 3}) == 0 ? 0 : *uniform<uint64_t>(1, 1u << 16)) * align;
}

// Past this many segments a table draws its gaps and runs from one seed
// instead of a RapidCheck choice per segment: the choices were most of the
// slowest properties' time, and a failing case still shrinks by its count,
// its seed and every other choice.
constexpr size_t kChosenOneByOne = 16;

// The seeded stream of a large table, with next_frame's gap distribution:
// no gap 1 in 4, else 1..65536 frames.
struct Stream : SplitMix64 {
	uint64_t gap() {
		const uint64_t r = next();
		return r % 4 == 0 ? 0 : 1 + (r >> 2) % (1u << 16);
	}
};

// How many segments: mostly a few, sometimes a few hundred.
size_t count(size_t few, size_t many) {
	return *uniform<size_t>(1, (draw_choice({6, 1}) == 0 ? few : many) + 1);
}

// Segments of @unit bytes each: either scattered (each its own frame) or,
// behind an IOMMU, one contiguous IOVA range cut into runs.
std::vector<DmaSeg> pieces(size_t n, uint64_t unit, uint64_t align, bool iommu) {
	std::vector<DmaSeg> v;
	v.reserve(n);
	uint64_t at = first_frame(align);
	const bool seeded = n > kChosenOneByOne;
	Stream st{{seeded ? *rc::gen::arbitrary<uint64_t>() : 0}};
	if (!iommu) {
		for (size_t i = 0; i < n; ++i) {
			v.push_back({at, unit});
			at = seeded ? (at + unit + align - 1) / align * align + st.gap() * align
				    : next_frame(at + unit, align);
		}
		return v;
	}
	size_t left = n;
	while (left) {
		// The DMA API merges up to its max segment size; cut the range
		// into runs of random length, contiguous end to start.
		const uint64_t r = seeded ? st.next() : 0;
		const size_t run = seeded ? (r & 1 ? left : 1 + (r >> 1) % left)
					  : draw_choice({1, 1}) == 0 ? left : *uniform<size_t>(1, left + 1);
		v.push_back({at, run * unit});
		at += run * unit;
		left -= run;
	}
	return v;
}

SgTable honest(Exporter e, unsigned page_shift) {
	const uint64_t page = uint64_t{1} << page_shift;
	SgTable t;
	t.exporter = e;
	switch (e) {
	case Exporter::udmabuf: {
		// memfd pages are PAGE_SIZE folios; IOMMU alignment of the IOVA
		// range is anything from a page to 2 MiB.
		const bool iommu = *coin();
		const uint64_t align = page << *uniform(0u, 22u - std::min(page_shift, 21u));
		t.segs = pieces(count(16, 512), page, iommu ? align : page, iommu);
		break;
	}
	case Exporter::hugetlb:
		t.segs = pieces(count(4, 16), kSZ2M, kSZ2M, *coin());
		break;
	case Exporter::mixed: {
		const size_t n = count(6, 32);
		uint64_t end = 0;
		for (size_t i = 0; i < n; ++i) {
			const uint64_t sz = std::max(page, draw_pick<uint64_t>({4096, 16384, 65536, kSZ2M}));
			const uint64_t at = i ? next_frame(end, sz) : first_frame(sz);
			t.segs.push_back({at, sz});
			end = at + sz;
		}
		break;
	}
	case Exporter::gpu: {
		const uint64_t g = draw_pick<uint64_t>({65536, kSZ2M});
		const uint64_t gran = std::max(g, page);
		t.segs = pieces(count(8, 64), gran, gran, true);
		break;
	}
	case Exporter::coalesced: {
		const uint64_t unit = std::max(page, draw_pick<uint64_t>({4096, 65536, kSZ2M}));
		const uint64_t align = std::max(unit, draw_pick<uint64_t>({4096, 65536, kSZ2M, 1u << 30}));
		t.segs.push_back({first_frame(align), unit * *uniform<uint64_t>(1, 33)});
		break;
	}
	case Exporter::count_:
		break;
	}
	t.dmabuf_size = saturating_total(t.segs);
	return t;
}

void apply_lie(SgTable &t, Lie lie, unsigned page_shift) {
	const uint64_t page = uint64_t{1} << page_shift;
	t.lie = lie;
	auto &s = t.segs;
	const size_t i = *uniform<size_t>(0, s.size());
	const uint64_t total = saturating_total(s);
	switch (lie) {
	case Lie::none:
		break;
	case Lie::unaligned_addr:
		s[i].addr += draw_pick<uint64_t>({page / 2, 1, page - 1, 512, 4096, 65536, kSZ2M / 2});
		break;
	case Lie::unaligned_len:
		s[i].len += draw_pick<uint64_t>({0 - page / 2, 1, UINT64_MAX, page / 2, 4096, 65536});
		break;
	case Lie::zero_len:
		s.insert(s.begin() + static_cast<ptrdiff_t>(*uniform<size_t>(0, s.size() + 1)),
			 DmaSeg{draw_pick<uint64_t>({0, s[i].addr, 1}), 0});
		break;
	case Lie::addr_zero:
		s[i].addr = 0;
		break;
	case Lie::addr_near_2_64:
		// Ending exactly at 2^64, one page short, or wrapping past it.
		s[i].addr = draw_pick<uint64_t>({0 - s[i].len, 0 - s[i].len - page, 0 - page,
							  0 - s[i].len + 1, UINT64_MAX});
		break;
	case Lie::addr_near_2_32:
		s[i].addr = draw_pick<uint64_t>({(uint64_t{1} << 32) - s[i].len,
							  (uint64_t{1} << 32) - page, kU32Max,
							  uint64_t{1} << 32, (uint64_t{1} << 32) + page});
		break;
	case Lie::len_near_2_32:
		s[i].len = draw_pick<uint64_t>({(uint64_t{1} << 32) - page, uint64_t{1} << 32,
							 (uint64_t{1} << 32) + page, kU32Max});
		break;
	case Lie::len_near_2_64:
		s[i].len = draw_pick<uint64_t>({0 - page, UINT64_MAX, uint64_t{1} << 63,
							 0 - kSZ2M});
		break;
	case Lie::many_segments: {
		const size_t n = *weighted<size_t>({
			{4, uniform<size_t>(256, 1025)},
			{1, rc::gen::just<size_t>(4096)},
		});
		s = pieces(n, page, page, false);
		break;
	}
	case Lie::size_short:
		t.dmabuf_size = total - std::min(total, draw_pick<uint64_t>({page, 1, kSZ2M, total / 2, total}));
		t.size_set = true;
		return;
	case Lie::size_long:
		t.dmabuf_size = total + draw_pick<uint64_t>({page, 1, kSZ2M, total,
								    uint64_t{1} << 40, UINT64_MAX - total});
		t.size_set = true;
		return;
	case Lie::count_:
		break;
	}
	// Exporters that lie about segments either keep the dmabuf size of the
	// honest table or report their own (wrong) sum.
	// A 4 GiB segment in a 4 GiB dmabuf costs a million-entry niov table
	// per bind: keep that one rare, it is the same arithmetic every time.
	const uint64_t sum = saturating_total(s);
	const bool own_sum = lie == Lie::len_near_2_32 ? draw_weighted_pick<bool>({{7, false}, {1, true}})
						       : *coin();
	if (own_sum) {
		t.dmabuf_size = sum;
		t.size_set = false;
	} else {
		t.dmabuf_size = total;
		t.size_set = total != sum;
	}
}

}  // namespace

std::string_view name(Exporter e) {
	static constexpr std::string_view n[] = {"udmabuf", "hugetlb", "mixed", "gpu", "coalesced"};
	return n[static_cast<size_t>(e)];
}

std::string_view name(Lie l) {
	static constexpr std::string_view n[] = {
		"none",		  "unaligned_addr", "unaligned_len", "zero_len",      "addr_zero",
		"addr_near_2_64", "addr_near_2_32", "len_near_2_32", "len_near_2_64", "many_segments",
		"size_short",	  "size_long"};
	return n[static_cast<size_t>(l)];
}

std::string SgTable::tag() const {
	std::string s(name(exporter));
	if (lie != Lie::none)
		s += "+" + std::string(name(lie));
	return s;
}

uint64_t saturating_total(const std::vector<DmaSeg> &segs) {
	uint64_t sum = 0;
	for (const auto &s : segs)
		sum = s.len > UINT64_MAX - sum ? UINT64_MAX : sum + s.len;
	return sum;
}

const std::vector<Lie> &all_lies() {
	static const std::vector<Lie> v{Lie::unaligned_addr, Lie::unaligned_len, Lie::zero_len,
					Lie::addr_zero,	     Lie::addr_near_2_64, Lie::addr_near_2_32,
					Lie::len_near_2_32,  Lie::len_near_2_64,  Lie::many_segments,
					Lie::size_short,     Lie::size_long};
	return v;
}

const std::vector<Lie> &one_to_one_lies() {
	static const std::vector<Lie> v{Lie::unaligned_addr, Lie::unaligned_len, Lie::zero_len,
					Lie::many_segments, Lie::size_short, Lie::size_long};
	return v;
}

rc::Gen<SgTable> gen_honest_table(unsigned page_shift) {
	return rc::gen::exec([page_shift] {
		const auto e = static_cast<Exporter>(*uniform<int>(0, static_cast<int>(Exporter::count_)));
		return honest(e, page_shift);
	});
}

rc::Gen<SgTable> gen_lying_table(unsigned page_shift, std::vector<Lie> lies) {
	return rc::gen::exec([page_shift, lies] {
		SgTable t = *gen_honest_table(page_shift);
		apply_lie(t, *rc::gen::elementOf(lies), page_shift);
		return t;
	});
}

rc::Gen<SgTable> gen_table(unsigned page_shift) {
	return weighted<SgTable>({
		{3, gen_honest_table(page_shift)},
		{1, gen_lying_table(page_shift, all_lies())},
	});
}

void put_table(Scenario &sc, const SgTable &t) {
	sc.segs = t.segs;
	sc.dmabuf_size = t.dmabuf_size;
	sc.dmabuf_size_set = t.dmabuf_size != saturating_total(t.segs);
	sc.name = t.tag();
}

}  // namespace niov::props
