// frag.* and skb.size_goal: the frags and skbs each send builds, walked
// against an independent account of the fill's clamps (RULES.md "Fill" and
// "TCP": niov remainder, iov element remainder, device max frag, bytes left
// in the send and room left in the skb).
#include <algorithm>

#include "props_common.hpp"

namespace niov::props {

namespace {

enum class FragAspect { within_niov, limits, count, bytes, progress, size_goal, fill_errno };

// May any stream byte (or a leading empty element, which the fill looks
// up too) fall outside the dmabuf?  If not, nothing can stop the send.
bool all_in_dmabuf(const oracle::Iov &iov, uint64_t dmabuf_size) {
	if (iov.total == 0)
		return true;
	uint64_t left = iov.total;
	for (size_t i = 0; i < iov.elems.size() && left; ++i) {
		const auto &e = iov.elems[i];
		const uint64_t len = std::min(e.len, left);
		if (len == 0) {
			if (i < iov.leading_empty && e.base >= dmabuf_size)
				return false;
			continue;
		}
		if (e.base >= dmabuf_size || len > dmabuf_size - e.base)
			return false;
		left -= len;
	}
	return true;
}

void walk_send(const Scenario &sc, const Trace &tr, size_t k, FragAspect a) {
	const Config &cfg = sc.cfg;
	const OpReport &rep = tr.ops[k];
	const auto iov = oracle::effective_iov(sc.ops[k], cfg);
	const unsigned lsh = oracle::lookup_shift(cfg, tr.bind.niov_shift);
	const uint64_t gran = niov_size(lsh), n = niov_size(tr.bind.niov_shift);
	const uint64_t dev_max = oracle::tx_max_frag(cfg);
	const std::string at = fmt::format("{}: send {}", tr.source, k + 1);
	// tcp_sendmsg's devmem path fails a send only with what import_iovec,
	// the binding lookup, the socket's memory and the fill's contract give.
	if (a == FragAspect::fill_errno && rep.result < 0 && rep.result != -kEINVAL && rep.result != -kEFAULT &&
	    rep.result != -kEAGAIN)
		fail("{}: returned {}, which no step of a devmem send returns", at,
		     errno_name(static_cast<int>(rep.result)));
	if (iov.err) {
		if (a == FragAspect::bytes && (rep.result != iov.err || !rep.skbs.empty()))
			fail("{}: import_iovec refuses it ({}) but the send returned {} with {} skbs", at,
			     errno_name(iov.err), rep.result, rep.skbs.size());
		return;
	}
	uint64_t pos = 0;
	size_t empty = 0;
	for (size_t j = 0; j < rep.skbs.size(); ++j) {
		const SkbReport &s = rep.skbs[j];
		const bool last = j + 1 == rep.skbs.size();
		if (a == FragAspect::count && s.frags.size() > cfg.max_skb_frags)
			fail("{} skb {}: {} frags, MAX_SKB_FRAGS {}", at, j, s.frags.size(), cfg.max_skb_frags);
		uint64_t in_skb = 0;
		for (size_t i = 0; i < s.frags.size(); ++i) {
			const Frag &f = s.frags[i].frag;
			if (a == FragAspect::within_niov && uint64_t{f.off} + f.len > n)
				fail("{} skb {} frag {}: off {:#x} + len {} crosses the end of a {:#x}-byte niov", at, j,
				     i, f.off, f.len, n);
			if (f.len == 0) {
				// Only a leading empty element gives an empty frag: the fill
				// looks it up, and advancing by 0 then steps over the whole
				// run of empty elements (and every later empty one) at once.
				++empty;
				if (a == FragAspect::progress && (pos != 0 || empty > std::min<size_t>(iov.leading_empty, 1)))
					fail("{} skb {} frag {}: an empty frag after {} bytes and {} empty frags ({} leading "
					     "empty elements)",
					     at, j, i, pos, empty - 1, iov.leading_empty);
				continue;
			}
			if (pos >= iov.total) {
				if (a == FragAspect::bytes)
					fail("{}: frags beyond the {} bytes the send holds", at, iov.total);
				return;
			}
			const auto here = oracle::stream_at(iov, pos);
			const uint64_t niov_rem = gran - here.virt % gran;
			const uint64_t want = std::min({niov_rem, here.elem_left, dev_max, iov.total - pos,
							uint64_t{cfg.size_goal} - std::min<uint64_t>(in_skb, cfg.size_goal)});
			if (a == FragAspect::limits && (f.len > niov_rem || f.len > here.elem_left || f.len > dev_max))
				fail("{} skb {} frag {} at offset {:#x}: {} bytes, niov remainder {}, element "
				     "remainder {}, device max {}",
				     at, j, i, here.virt, f.len, niov_rem, here.elem_left, dev_max);
			if (a == FragAspect::limits && f.len != want)
				fail("{} skb {} frag {} at offset {:#x}: {} bytes, the clamps give {}", at, j, i,
				     here.virt, f.len, want);
			pos += f.len;
			in_skb += f.len;
		}
		if (a == FragAspect::bytes && in_skb != s.len)
			fail("{} skb {}: frags hold {} bytes, skb len {}", at, j, in_skb, s.len);
		if (a == FragAspect::size_goal) {
			if (s.len > cfg.size_goal)
				fail("{} skb {}: {} bytes, size_goal {}", at, j, s.len, cfg.size_goal);
			// An skb is pushed early only when its frags ran out (or it
			// stayed empty: all it got were empty frags that did not fit).
			const bool empty_skb = s.len == 0 && s.frags.empty();
			if (!last && s.len != cfg.size_goal && s.frags.size() != cfg.max_skb_frags && !empty_skb)
				fail("{} skb {}: pushed with {} bytes and {} frags (size_goal {}, MAX_SKB_FRAGS {})", at,
				     j, s.len, s.frags.size(), cfg.size_goal, cfg.max_skb_frags);
		}
	}
	if (a == FragAspect::bytes) {
		if (pos ? rep.result != static_cast<int64_t>(pos) : rep.result > 0)
			fail("{}: returned {}, its skbs hold {} bytes", at, rep.result, pos);
		if (all_in_dmabuf(iov, sc.dmabuf_size) && rep.result != static_cast<int64_t>(iov.total))
			fail("{}: every byte is inside the dmabuf but it returned {} of {}", at, rep.result, iov.total);
	}
}

void frag_property(const Target &t, FragAspect a, Inv own) {
	Shape s = shape_for(t, true);  // every one of these holds under any policy
	s.max_sends = 3;
	const Scenario sc = *gen_scenario(s);
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	for (const Trace *tr : traces(r)) {
		if (tr->bind.err)
			continue;
		for (size_t k = 0; k < sc.ops.size() && k < tr->ops.size(); ++k)
			if (sc.ops[k].kind == OpKind::send)
				walk_send(sc, *tr, k, a);
	}
	require_clean(r, sc, own);
}

}  // namespace

void add_frag_properties(std::vector<Property> &out) {
	out.push_back({"frag.within_niov", "no frag crosses the end of its niov",
		       [](const Target &t) { frag_property(t, FragAspect::within_niov, Inv::frag_within_niov); }});
	out.push_back({"frag.limits", "every frag is exactly the least of its clamps (niov, element, device, send, skb)",
		       [](const Target &t) { frag_property(t, FragAspect::limits, Inv::frag_limits); }});
	out.push_back({"frag.count", "no skb holds more than MAX_SKB_FRAGS frags",
		       [](const Target &t) { frag_property(t, FragAspect::count, Inv::frag_count); }});
	out.push_back({"frag.bytes_accounted", "frag lengths add up to the skb lengths and to what the send returned",
		       [](const Target &t) { frag_property(t, FragAspect::bytes, Inv::frag_bytes_accounted); }});
	out.push_back({"frag.progress", "empty frags come only from leading empty iov elements",
		       [](const Target &t) { frag_property(t, FragAspect::progress, Inv::frag_progress); }});
	out.push_back({"abi.fill_errno", "the fill answers 0, -EMSGSIZE or -EFAULT and sends fail only with errnos the path has",
		       [](const Target &t) { frag_property(t, FragAspect::fill_errno, Inv::abi_fill_errno); }});
	out.push_back({"skb.size_goal", "skbs stay within size_goal and are pushed early only when out of frags",
		       [](const Target &t) { frag_property(t, FragAspect::size_goal, Inv::skb_size_goal); }});
}

}  // namespace niov::props
