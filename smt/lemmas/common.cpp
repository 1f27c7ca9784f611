#include "common.hpp"

namespace niov::smt::lemmas {

std::vector<Point> each_page(const Policies &pol, unsigned nsegs) {
	std::vector<Point> v;
	for (unsigned ps : kPageShifts) {
		Point p;
		p.pol = pol;
		p.page_shift = ps;
		p.nsegs = nsegs;
		v.push_back(p);
	}
	return v;
}

std::vector<Point> each_page_device(const Policies &pol) {
	std::vector<Point> v;
	for (const Point &page : each_page(pol, 0))
		for (Device d : kDevices) {
			Point p = page;
			p.dev = d;
			v.push_back(p);
		}
	return v;
}

std::vector<Point> only_autosize(std::vector<Point> v) {
	if (!v.empty() && v.front().pol.tx_niov == TxNiov::page)
		return {};
	return v;
}

std::vector<Point> each_shift(const std::vector<Point> &v) {
	std::vector<Point> out;
	for (const Point &p : v) {
		const unsigned last = p.pol.tx_niov == TxNiov::page ? p.page_shift : p.pol.tx_niov_max_shift;
		for (unsigned s = p.page_shift; s <= last; ++s) {
			Point q = p;
			q.niov_shift = s;
			out.push_back(q);
		}
	}
	return out;
}

Scenario tx_scenario(const Point &p, uint64_t dmabuf_size, std::vector<DmaSeg> segs) {
	Scenario sc;
	sc.cfg.page_shift = p.page_shift;
	sc.cfg.device = p.dev;
	// The preset with exactly these policies if there is one (a scenario that
	// overrides nothing is judged as that preset), else tx-autosize + overrides.
	sc.cfg.preset = Preset::tx_autosize;
	for (Preset pr : kAllPresets)
		if (preset_policies(pr) == p.pol)
			sc.cfg.preset = pr;
	sc.cfg.policy = p.pol;
	sc.dir = Dir::tx;
	sc.dmabuf_size = dmabuf_size;
	sc.dmabuf_size_set = true;
	sc.segs = std::move(segs);
	return sc;
}

std::vector<DmaSeg> segment_for_shift(unsigned shift, uint64_t min_len) {
	uint64_t m = (min_len >> shift) + 1;
	if (shift < 21 && (m & 1) == 0)
		++m;  // an odd multiple: the sizing loop stops exactly at 1 << shift
	return {DmaSeg{uint64_t{1} << 30, m << shift}};
}

}  // namespace niov::smt::lemmas
