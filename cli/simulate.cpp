// simulate: the seeds' frags-per-skb tables, recomputed by the model over
// every start offset inside a niov.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "report.hpp"

namespace niov::cli {

namespace {

// sk_gso_max_size with BIG TCP (GSO_MAX_SIZE minus MAX_TCP_HEADER + 1), cut
// to whole MSS: what tcp_xmit_size_goal gives with a large window.
constexpr uint32_t kBigTcpSizeGoal = (524280 - 321) / 1448 * 1448;

struct SimCase {
	unsigned page_shift = 12;
	uint64_t niov = 4096;
	Device device = Device::none;
	Preset rules = Preset::tx_autosize;
	uint32_t size_goal = 65160;
	unsigned max_skb_frags = 17;
};

struct SimResult {
	uint32_t frags_min = UINT32_MAX, frags_max = 0;
	uint32_t skb_min = UINT32_MAX, skb_max = 0;
	uint32_t largest_frag = 0;
	uint64_t offsets = 0;
	unsigned violations = 0;
	std::vector<std::pair<uint64_t, uint32_t>> curve;  // offset -> frags in the first skb
};

// A dmabuf whose segments are exactly one niov long at odd multiples of the
// niov size, so TX auto-sizing lands on that size and no larger.
Scenario layout(const SimCase &c, uint64_t send_len) {
	Scenario sc;
	sc.cfg.page_shift = c.page_shift;
	sc.cfg.device = c.device;
	sc.cfg.size_goal = c.size_goal;
	sc.cfg.max_skb_frags = c.max_skb_frags;
	sc.cfg.preset = c.rules;
	sc.cfg.policy = preset_policies(c.rules);
	if (c.niov != sc.cfg.page_size())
		sc.cfg.policy.tx_niov = TxNiov::autosize;
	const uint64_t count = (send_len + 2 * c.niov) / c.niov + 1;
	for (uint64_t i = 0; i < count; ++i)
		sc.segs.push_back({(2 * i + 1) * c.niov + (uint64_t{1} << 40), c.niov});
	sc.dmabuf_size = count * c.niov;
	sc.dmabuf_size_set = true;
	sc.name = "simulate";
	return sc;
}

SimResult simulate(const SimCase &c) {
	SimResult r;
	const uint64_t send_len = uint64_t{c.size_goal} * 3;
	Scenario sc = layout(c, send_len);
	// Every offset for small niovs; for large ones a stride plus the points
	// where the frag count changes (the skb end crossing a niov end).
	std::vector<uint64_t> offs;
	const uint64_t stride = std::max<uint64_t>(1, c.niov / 4096);
	for (uint64_t o = 0; o < c.niov; o += stride)
		offs.push_back(o);
	for (uint64_t k = 1; k <= 8; ++k) {
		const uint64_t edge = (c.niov - (uint64_t{c.size_goal} * k) % c.niov) % c.niov;
		for (int64_t d = -1; d <= 1; ++d)
			offs.push_back((edge + static_cast<uint64_t>(d) + c.niov) % c.niov);
	}
	std::sort(offs.begin(), offs.end());
	offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
	ModelImpl model;
	for (uint64_t o : offs) {
		sc.ops = {Op{OpKind::send, {{o, send_len}}, std::nullopt, 0, 1}};
		const Trace t = trace_scenario(sc, model, {});
		r.violations += static_cast<unsigned>(t.violations.size());
		if (t.ops.empty())
			continue;
		const auto &skbs = t.ops[0].skbs;
		for (size_t s = 0; s + 1 < skbs.size(); ++s) {	 // the last skb is a remainder
			const auto n = static_cast<uint32_t>(skbs[s].frags.size());
			r.frags_min = std::min(r.frags_min, n);
			r.frags_max = std::max(r.frags_max, n);
			r.skb_min = std::min(r.skb_min, skbs[s].len);
			r.skb_max = std::max(r.skb_max, skbs[s].len);
			for (const auto &f : skbs[s].frags)
				r.largest_frag = std::max(r.largest_frag, f.frag.len);
		}
		if (!skbs.empty())
			r.curve.emplace_back(o, static_cast<uint32_t>(skbs[0].frags.size()));
		++r.offsets;
	}
	return r;
}

std::string size_text(uint64_t v) {
	if (v >= (1u << 20) && v % (1u << 20) == 0)
		return fmt::format("{}M", v >> 20);
	if (v >= 1024 && v % 1024 == 0)
		return fmt::format("{}K", v >> 10);
	return std::to_string(v);
}

void write_svg(const std::string &path, const std::vector<std::pair<SimCase, SimResult>> &rows) {
	std::ofstream f(path);
	if (!f)
		throw UsageError(fmt::format("{}: cannot write", path));
	const int w = 720, h = 60 + 140 * static_cast<int>(rows.size());
	f << fmt::format("<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' "
			 "font-family='monospace' font-size='12'>\n", w, h);
	f << "<text x='10' y='20'>frags in the first skb vs start offset inside a niov</text>\n";
	int y0 = 40;
	for (const auto &[c, r] : rows) {
		const double maxf = std::max<uint32_t>(r.frags_max, 1);
		f << fmt::format("<text x='10' y='{}'>page {} niov {} {} size_goal {}: {}-{} frags</text>\n",
				 y0 + 12, size_text(uint64_t{1} << c.page_shift), size_text(c.niov),
				 name(c.device), c.size_goal, r.frags_min, r.frags_max);
		f << fmt::format("<polyline fill='none' stroke='steelblue' points='");
		for (const auto &[o, n] : r.curve)
			f << fmt::format("{:.1f},{:.1f} ", 40 + 640.0 * static_cast<double>(o) / static_cast<double>(c.niov),
					 y0 + 120 - 100.0 * n / maxf);
		f << "'/>\n";
		y0 += 140;
	}
	f << "</svg>\n";
}

}  // namespace

int cmd_simulate(Args &args) {
	const bool json = args.flag("json");
	const bool judge = args.flag("judge");
	const std::string svg = args.option("svg", "");
	std::vector<SimCase> cases;
	SimCase c;
	c.page_shift = static_cast<unsigned>(args.number("page-shift", 0));
	c.niov = args.number("niov-size", 0);
	const std::string dev = args.option("device", "");
	const std::string rules = args.option("rules", "");
	const bool big = args.flag("big-tcp");
	const uint64_t goal = args.number("size-goal", 0);
	c.max_skb_frags = static_cast<unsigned>(args.number("max-skb-frags", 17));
	args.done();
	const bool defaults = !c.page_shift && !c.niov && dev.empty() && rules.empty() && !big && !goal;
	if (defaults) {
		// The seeds' situations: 4K vs 2M niovs, legacy vs BIG TCP, bnxt's cap,
		// and 64K pages on bnxt before the cap.
		auto mk = [](unsigned ps, uint64_t n, Device d, Preset p, uint32_t g) {
			SimCase s;
			s.page_shift = ps;
			s.niov = n;
			s.device = d;
			s.rules = p;
			s.size_goal = g;
			return s;
		};
		cases = {mk(12, 4096, Device::none, Preset::net_next, 65160),
			 mk(12, 2u << 20, Device::none, Preset::tx_autosize, 65160),
			 mk(12, 4096, Device::none, Preset::net_next, kBigTcpSizeGoal),
			 mk(12, 2u << 20, Device::none, Preset::tx_autosize, kBigTcpSizeGoal),
			 mk(12, 2u << 20, Device::bnxt, Preset::tx_autosize, 65160),
			 mk(16, 65536, Device::bnxt, Preset::net_next, kBigTcpSizeGoal)};
	} else {
		if (!c.page_shift)
			c.page_shift = 12;
		if (c.page_shift != 12 && c.page_shift != 14 && c.page_shift != 16)
			throw UsageError("--page-shift must be 12, 14 or 16");
		if (!c.niov)
			c.niov = uint64_t{1} << c.page_shift;
		if (!std::has_single_bit(c.niov) || c.niov < (uint64_t{1} << c.page_shift) || c.niov > (2u << 20))
			throw UsageError("--niov-size must be a power of two in [PAGE_SIZE, 2M]");
		if (!dev.empty()) {
			auto d = parse_device(dev);
			if (!d)
				throw UsageError(fmt::format("unknown device '{}'", dev));
			c.device = *d;
		}
		c.rules = c.niov == (uint64_t{1} << c.page_shift) ? Preset::net_next : Preset::tx_autosize;
		if (!rules.empty()) {
			auto p = parse_preset(rules);
			if (!p)
				throw UsageError(fmt::format("unknown rules '{}'", rules));
			c.rules = *p;
		}
		c.size_goal = big ? kBigTcpSizeGoal : goal ? static_cast<uint32_t>(goal) : 65160;
		if (goal > INT32_MAX || c.size_goal == 0)
			throw UsageError("--size-goal must be in 1..2^31-1");
		if (c.max_skb_frags < kMinMaxSkbFrags || c.max_skb_frags > kMaxMaxSkbFrags)
			throw UsageError("--max-skb-frags must be in 17..45");
		cases = {c};
	}
	std::vector<std::pair<SimCase, SimResult>> rows;
	for (const auto &sc : cases)
		rows.emplace_back(sc, simulate(sc));
	unsigned violations = 0;
	if (json) {
		auto a = nlohmann::json::array();
		for (const auto &[k, r] : rows) {
			a.push_back({{"page_size", uint64_t{1} << k.page_shift}, {"niov_size", k.niov},
				     {"device", name(k.device)}, {"rules", name(k.rules)}, {"size_goal", k.size_goal},
				     {"max_skb_frags", k.max_skb_frags}, {"offsets", r.offsets},
				     {"frags_per_skb_min", r.frags_min}, {"frags_per_skb_max", r.frags_max},
				     {"skb_len_min", r.skb_min}, {"skb_len_max", r.skb_max},
				     {"largest_frag", r.largest_frag}, {"violations", r.violations}});
			violations += r.violations;
		}
		std::puts(nlohmann::json{{"schema", "niovcheck-simulate/1"}, {"rows", a}, {"violations", violations}}
				  .dump(2)
				  .c_str());
	} else {
		std::printf("%-5s %-5s %-6s %-12s %-9s %-8s %-11s %-15s %-8s %s\n", "page", "niov", "device", "rules",
			    "size_goal", "offsets", "frags/skb", "skb len", "max frag", "violations");
		for (const auto &[k, r] : rows) {
			std::printf("%-5s %-5s %-6s %-12s %-9u %-8llu %-11s %-15s %-8u %u\n",
				    size_text(uint64_t{1} << k.page_shift).c_str(), size_text(k.niov).c_str(),
				    std::string(name(k.device)).c_str(), std::string(name(k.rules)).c_str(),
				    k.size_goal, static_cast<unsigned long long>(r.offsets),
				    fmt::format("{}-{}", r.frags_min, r.frags_max).c_str(),
				    fmt::format("{}-{}", r.skb_min, r.skb_max).c_str(), r.largest_frag,
				    r.violations);
			violations += r.violations;
		}
	}
	if (!svg.empty())
		write_svg(svg, rows);
	// A table is not a verdict: only --judge turns violations into exit 1.
	return judge && violations ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
