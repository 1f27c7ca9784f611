// dev.*: what the NIC's descriptors make of each frag.
#include <algorithm>

#include "props_common.hpp"

namespace niov::props {

namespace {

// The device side of one skb, counted independently of the checker: per GSO
// segment of mss bytes, one header descriptor plus every (gve: 16383-byte)
// data piece overlapping it; an skb within one mss is one segment.  A piece
// adds one to every segment it overlaps: a difference array keeps that
// linear even for 8-byte segments.
bool gve_over_budget(const SkbReport &s, uint32_t mss, uint64_t &worst) {
	if (s.len == 0)
		return false;
	const uint64_t seg = std::min<uint64_t>(mss, s.len);
	const uint64_t nseg = (s.len + seg - 1) / seg;
	std::vector<int64_t> diff(nseg + 1, 0);
	auto add = [&](uint64_t first, uint64_t last) {
		++diff[first];
		--diff[last + 1];
	};
	uint64_t pos = 0;
	for (const auto &fr : s.frags) {
		const uint64_t len = fr.frag.len;  // 0: no piece, no descriptor
		for (uint64_t a = pos; a < pos + len; a += 16383) {
			const uint64_t b = std::min(a + 16383, pos + len);
			add(a / seg, (b - 1) / seg);
		}
		pos += len;
	}
	worst = 0;
	int64_t run = 0;
	for (uint64_t k = 0; k < nseg; ++k) {
		run += diff[k];
		worst = std::max<uint64_t>(worst, 1 + static_cast<uint64_t>(run));  // + the header
	}
	return worst > 10;
}

bool bnxt_drops(const Config &cfg, const SkbReport &s) {
	return s.frags.size() > 30 &&
	       (cfg.policy.bnxt_frags == BnxtFrags::linearize || s.len <= cfg.mss);
}

Scenario gen_device_sends(const Target &t, std::vector<Device> devices) {
	Shape s = shape_for(t, false);
	s.max_sends = 3;
	std::vector<Device> both;
	for (Device d : s.space.devices)
		if (std::find(devices.begin(), devices.end(), d) != devices.end())
			both.push_back(d);
	if (!both.empty())
		s.space.devices = both;
	return *gen_scenario(s);
}

// The encodings one side gives for @lens against the device table; with
// @exact, every length must also be carried exactly (unless the scenario's
// device is a known finding).
void check_encodings(const Scenario &sc, Impl &impl, const std::vector<uint32_t> &lens, bool exact) {
	Bound b(impl, sc);  // a plugin reads its device from the bound configuration
	const Device dev = sc.cfg.device;
	for (uint32_t len : lens) {
		std::vector<uint32_t> got;
		const auto r = impl.encode_tx_desc(len, got);
		const auto want = oracle::tx_descs(dev, len);
		const bool dropped = r && *r < 0;
		if (r && (dropped != !want || (!dropped && got != *want)))
			fail("{}: {} encodes a {}-byte frag as {} descriptors{}, the device table says {}",
			     impl.name(), name(dev), len, got.size(), dropped ? " (dropped)" : "",
			     want ? fmt::format("{} descriptors", want->size()) : "a drop");
		uint64_t sum = 0;
		if (want)
			for (uint32_t x : *want)
				sum += x;
		if (exact && (!want || sum != len) && !excused(sc, Inv::dev_desc_len_exact, Inv::dev_desc_len_exact))
			fail("{} carries a {}-byte frag as {}", name(dev), len,
			     want ? fmt::format("{} bytes", sum) : "a dropped packet");
	}
}

void desc_len_exact(const Target &t) {
	const Scenario sc = gen_device_sends(t, {Device::none, Device::mlx5, Device::gve, Device::fbnic, Device::bnxt});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	// The frags every side built, plus the lengths around each field width.
	std::vector<uint32_t> lens;
	for (const Trace *tr : traces(r))
		for (const auto &op : tr->ops)
			for (const auto &s : op.skbs)
				for (const auto &fr : s.frags)
					lens.push_back(fr.frag.len);
	std::sort(lens.begin(), lens.end());
	lens.erase(std::unique(lens.begin(), lens.end()), lens.end());
	if (lens.size() > 256)
		lens.resize(256);
	// Only lengths the sends produced, so that the scenario file shows a
	// failure on replay (the generated lengths hit 16383/16384, 32 KiB and
	// 64 KiB edges on their own).
	ModelImpl model;
	check_encodings(sc, model, lens, true);
	if (Impl *impl = t.impl_for(sc))
		check_encodings(sc, *impl, lens, false);
	require_clean(r, sc, Inv::dev_desc_len_exact);
}

void desc_count(const Target &t) {
	const Scenario sc = gen_device_sends(t, {Device::gve, Device::bnxt});
	CaseGuard guard(sc, t.impl_path_for(sc));
	const RunReport r = t.run(sc);
	const Config &cfg = sc.cfg;
	// Sends an application chunks sensibly: 16 KiB elements or more,
	// jumbo MSS at most, frags of a page or more.
	bool chunked = cfg.mss <= 8948 && (!cfg.tx_max_frag_size || *cfg.tx_max_frag_size >= 4096);
	for (const auto &op : sc.ops)
		for (const auto &e : op.iov)
			chunked &= e.len >= 16384;
	for (const Trace *tr : traces(r)) {
		if (tr->bind.err)
			continue;
		bool over = false;
		for (const auto &op : tr->ops) {
			for (const auto &s : op.skbs) {
				uint64_t worst = 0;
				if (cfg.device == Device::gve && gve_over_budget(s, cfg.mss, worst)) {
					over = true;
					if (chunked)
						fail("{}: gve needs {} descriptors for one segment of an skb of {} bytes in "
						     "{} frags, sent in 16 KiB+ elements",
						     tr->source, worst, s.len, s.frags.size());
				}
				over |= cfg.device == Device::bnxt && bnxt_drops(cfg, s);
			}
		}
		// The checker must flag exactly the packets the device cannot take.
		if (reports(*tr, Inv::dev_desc_count) != over)
			fail("{}: descriptor budgets {} but dev.desc_count {}", tr->source,
			     over ? "exceeded" : "kept", over ? "not reported" : "reported");
	}
	require_clean(r, sc, Inv::dev_desc_count);
}

}  // namespace

void add_device_properties(std::vector<Property> &out) {
	out.push_back({"dev.desc_len_exact", "every descriptor length encodes its frag exactly", desc_len_exact});
	out.push_back({"dev.desc_count", "gve descriptors per segment and bnxt frags per packet within limits",
		       desc_count});
}

}  // namespace niov::props
