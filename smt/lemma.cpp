#include "lemma.hpp"

#include <fmt/format.h>

namespace niov::smt {

Dom Dom::list(std::initializer_list<uint64_t> v) {
	Dom d;
	for (uint64_t x : v)
		if (d.nitems < d.items.size())
			d.items[d.nitems++] = x;
	return d;
}

z3::expr In<Sym>::add(std::string_view name, VarKind k, const Dom &dom) {
	vars_.push_back({std::string(name), k, dom});
	const std::string &n = vars_.back().name;
	switch (k) {
	case VarKind::u64:
		consts_.push_back(c_.bv_const(n.c_str(), 64));
		break;
	case VarKind::u32:
		consts_.push_back(c_.bv_const(n.c_str(), 32));
		break;
	case VarKind::flag:
		consts_.push_back(c_.bool_const(n.c_str()));
		break;
	}
	return consts_.back();
}

std::string point_label(const Point &p, uint32_t reads) {
	std::string s;
	auto add = [&s](const std::string &part) {
		if (!s.empty())
			s += ' ';
		s += part;
	};
	if (reads & kReadsPageShift)
		add(fmt::format("ps{}", p.page_shift));
	if (reads & kReadsDevice)
		add(fmt::format("dev={}", name(p.dev)));
	else if (reads & kReadsDevMax) {
		Config c;
		c.device = p.dev;
		const uint32_t m = c.device_tx_max_frag();
		add(m == UINT32_MAX ? std::string("devmax=none") : fmt::format("devmax={}", m));
	}
	if (reads & kReadsMaxPageOrder)
		add(fmt::format("mpo{}", p.max_page_order));
	if (reads & kReadsNiovShift)
		add(fmt::format("shift{}", p.niov_shift));
	if (reads & kReadsSegs)
		add(fmt::format("segs{}", p.nsegs));
	if (reads & kReadsZcrxDevice)
		add(p.zcrx_device ? "zcrx_dev" : "zcrx_nodev");
	// Policies in policies_string's order, only the ones read.
	const Policies &q = p.pol;
	std::string pols = policies_string(q);
	auto pick = [&](uint32_t bit, std::string_view key) {
		if (!(reads & bit))
			return;
		const size_t at = pols.find(std::string(key) + "=");
		if (at == std::string::npos)
			return;
		const size_t end = pols.find(' ', at);
		add(pols.substr(at, end == std::string::npos ? std::string::npos : end - at));
	};
	pick(kReadsRxAttr, "rx_attr");
	pick(kReadsBind, "bind");
	pick(kReadsTxNiov, "tx_niov");
	// The cap is read with the sizing mode; named only when not the series'
	// 2 MiB, so the labels (and file names) of the default rules stay put.
	if ((reads & kReadsTxNiov) && q.tx_niov_max_shift != Policies{}.tx_niov_max_shift)
		pick(kReadsTxNiov, "tx_niov_max");
	pick(kReadsLookup, "lookup");
	pick(kReadsTruesize, "truesize");
	pick(kReadsMaxFrag, "max_frag");
	return s.empty() ? std::string("any") : s;
}

}  // namespace niov::smt
