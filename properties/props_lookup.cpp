// lookup.* and frag.payload: get_niov_at and the DMA addresses behind it,
// probed at every boundary and at the offsets the generated sends use; and
// the whole pipeline reading a 7-byte-period pattern back out of the frags.
#include <algorithm>

#include "props_common.hpp"

namespace niov::props {

namespace {

Scenario gen_sends(const Target &t, std::vector<Lie> lies) {
	Shape s = shape_for(t, false);
	s.max_sends = 3;
	s.lies = std::move(lies);
	return *gen_scenario(s);
}

// Offsets worth asking get_niov_at about: the ends of pages, niovs, the
// dmabuf and every segment, the 64-bit edge, and where each send starts
// and ends (the sends put them in the scenario file, so replay probes them
// too).
std::vector<uint64_t> probe_points(const Scenario &sc, unsigned shift) {
	const uint64_t page = sc.cfg.page_size(), n = niov_size(shift), size = sc.dmabuf_size;
	std::vector<uint64_t> v{0, 1, page - 1, page, page + 1, n - 1, n, n + 1, 2 * n - 1,
				size - 1, size, size + 1, size - n, uint64_t{1} << 63, UINT64_MAX};
	uint64_t at = 0;
	for (size_t i = 0; i < sc.segs.size() && i < 64; ++i) {
		v.push_back(at - 1);
		v.push_back(at);
		at += sc.segs[i].len;
	}
	for (const auto &op : sc.ops)
		for (size_t i = 0; i < op.iov.size() && i < 64; ++i) {
			v.push_back(op.iov[i].base);
			v.push_back(op.iov[i].base + op.iov[i].len - 1);
			v.push_back(op.iov[i].base + op.iov[i].len);
		}
	std::sort(v.begin(), v.end());
	v.erase(std::unique(v.begin(), v.end()), v.end());
	return v;
}

enum class LookupAspect { index, off_size, byte_map };

// Probe one side directly; @impl answers, @who names it.
void probe_side(const Scenario &sc, Impl &impl, LookupAspect aspect) {
	Bound b(impl, sc);
	const BindResult &br = b.result();
	if (br.err)
		return;
	const uint64_t n = niov_size(br.niov_shift);
	for (uint64_t v : probe_points(sc, br.niov_shift)) {
		const LookupResult l = impl.lookup(v);
		const std::string who = impl.name();
		if (v >= sc.dmabuf_size) {
			if (aspect == LookupAspect::index && l.err != -kEFAULT)
				fail("{}: get_niov_at({:#x}) past the dmabuf ({:#x}) returned niov {} instead of NULL",
				     who, v, sc.dmabuf_size, l.idx);
			continue;
		}
		if (l.err) {
			if (aspect == LookupAspect::index)
				fail("{}: get_niov_at({:#x}) inside the dmabuf returned {}", who, v, errno_name(l.err));
			continue;
		}
		switch (aspect) {
		case LookupAspect::index:
			if (l.idx >= br.num_niovs || l.idx != v >> br.niov_shift)
				fail("{}: get_niov_at({:#x}) gave niov {}, want {} of {}", who, v, l.idx,
				     v >> br.niov_shift, br.num_niovs);
			break;
		case LookupAspect::off_size:
			if (l.size == 0 || l.off != v % n || l.off + l.size != n)
				fail("{}: get_niov_at({:#x}) gave off {:#x} size {:#x}; niovs are {:#x}", who, v, l.off,
				     l.size, n);
			break;
		case LookupAspect::byte_map: {
			const auto want = oracle::byte_map(sc.segs, v);
			if (!want)
				break;	// past the segments: the exporter lied (bind.sg_covers_dmabuf)
			const auto dma = impl.niov_dma(l.idx);
			if (!dma || *dma + l.off != *want)
				fail("{}: offset {:#x} is niov {} + {:#x} = DMA {}, the sg table says {:#x}", who, v,
				     l.idx, l.off, dma ? fmt::format("{:#x}", *dma + l.off) : "none", *want);
			break;
		}
		}
	}
}

void lookup_property(const Target &t, LookupAspect aspect, Inv own) {
	const Scenario sc = gen_sends(t, all_lies());
	CaseGuard guard(sc, t.impl_path_for(sc));
	// Where the rules break this invariant knowingly (a lying exporter, the
	// bind before the May 2026 fix) the probes would only restate it: the
	// model and the code are then held to each other.
	if (!excused(sc, own, own)) {
		ModelImpl model;
		probe_side(sc, model, aspect);
		if (Impl *impl = t.impl_for(sc))
			probe_side(sc, *impl, aspect);
	}
	require_clean(t.run(sc), sc, own);
}

// Every byte a frag points at must hold what the send named: the dmabuf
// is filled with byte(offset) = offset % 7 (the selftest's pattern), the
// device reads each frag's DMA range, and the bytes must equal those of
// the send's iov at the same stream position.  With that pattern two bytes
// agree exactly when their offsets agree mod 7, so runs are compared whole.
void check_payload(const Scenario &sc, const Trace &tr, Impl &impl, const oracle::Memory &mem) {
	if (tr.bind.err)
		return;
	unsigned __int128 mapped_end = 0;
	for (const auto &s : sc.segs)
		mapped_end += s.len;
	Bound b(impl, sc);
	for (size_t k = 0; k < sc.ops.size() && k < tr.ops.size(); ++k) {
		if (sc.ops[k].kind != OpKind::send)
			continue;
		const auto iov = oracle::effective_iov(sc.ops[k], sc.cfg);
		uint64_t pos = 0;
		for (const auto &skb : tr.ops[k].skbs) {
			for (const auto &fr : skb.frags) {
				const Frag &f = fr.frag;
				const auto dma = impl.niov_dma(f.niov);
				for (uint64_t i = 0; i < f.len;) {
					const auto want = oracle::stream_at(iov, pos + i);
					if (want.elem_left == 0)
						fail("{}: send {} frags hold more than the {} bytes it named", tr.source, k + 1,
						     iov.total);
					uint64_t step = std::min<uint64_t>(f.len - i, want.elem_left);
					if (want.virt >= mapped_end) {
						i += step;  // no sg entry holds these bytes: the exporter lied
						continue;
					}
					step = std::min<uint64_t>(step, static_cast<uint64_t>(mapped_end - want.virt));
					const auto got = dma ? mem.at(*dma + f.off + i) : std::nullopt;
					if (!got)
						fail("{}: send {} byte {} (dmabuf offset {:#x}) is read from DMA {} where "
						     "nothing is mapped",
						     tr.source, k + 1, pos + i, want.virt,
						     dma ? fmt::format("{:#x}", *dma + f.off + i) : "of a niov with none");
					if (!got->aliased && got->offset % 7 != want.virt % 7)
						fail("{}: send {} byte {} should be dmabuf offset {:#x} (pattern {}) but the "
						     "frag (niov {} off {:#x}) reads offset {:#x} (pattern {})",
						     tr.source, k + 1, pos + i, want.virt, want.virt % 7, f.niov, f.off + i,
						     got->offset, got->offset % 7);
					i += std::min(step, std::max<uint64_t>(got->run, 1));
				}
				pos += f.len;
			}
		}
	}
}

void payload(const Target &t) {
	const Scenario sc = gen_sends(t, one_to_one_lies());
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const oracle::Memory mem(sc.segs);
	if (mem.usable()) {
		ModelImpl model;
		check_payload(sc, r.model, model, mem);
		if (r.impl)
			check_payload(sc, *r.impl, *t.impl_for(sc), mem);
	}
	require_clean(r, sc, Inv::frag_payload);
}

}  // namespace

void add_lookup_properties(std::vector<Property> &out) {
	out.push_back({"lookup.index_in_table", "get_niov_at: a niov of the table inside the dmabuf, NULL past it",
		       [](const Target &t) { lookup_property(t, LookupAspect::index, Inv::lookup_index_in_table); }});
	out.push_back({"lookup.off_size", "get_niov_at: off + size == niov size, size >= 1",
		       [](const Target &t) { lookup_property(t, LookupAspect::off_size, Inv::lookup_off_size); }});
	out.push_back({"lookup.byte_map", "niov DMA address + off is the sg table's address of the offset",
		       [](const Target &t) { lookup_property(t, LookupAspect::byte_map, Inv::lookup_byte_map); }});
	out.push_back({"frag.payload", "a 7-byte-period pattern comes out of the frags byte-exact", payload});
}

}  // namespace niov::props
