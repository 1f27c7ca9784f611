#include "matrix.hpp"

#include <chrono>
#include <map>

#include <fmt/format.h>

#include "catalogue.hpp"
#include "lemmas/common.hpp"
#include "runner.hpp"

namespace niov::smt {

namespace {

using Clock = std::chrono::steady_clock;
constexpr unsigned kAll = (1u << kNumPatches) - 1;

std::string mask_name(unsigned mask) {
	std::string s;
	for (unsigned i = 0; i < kNumPatches; ++i)
		if (mask & (1u << i))
			s += (s.empty() ? "" : " ") + std::string(kPatches[i].name);
	return s.empty() ? "-" : s;
}

char family_letter(const std::string &inv) {
	const std::string fam = inv.substr(0, inv.find('.'));
	if (fam == "sizing")
		return 'S';
	if (fam == "bind")
		return 'B';
	if (fam == "rx")
		return 'R';
	if (fam == "lookup")
		return 'L';
	if (fam == "frag" || fam == "skb")
		return 'F';
	if (fam == "tcp")
		return 'T';
	if (fam == "dev")
		return 'D';
	if (fam == "zcrx")
		return 'Z';
	return '?';
}

std::string cell_text(const MatrixCell &c) {
	if (c.unknown)
		return "?";
	if (c.failing.empty())
		return "ok";
	std::set<char> letters;
	for (const auto &f : c.failing)
		letters.insert(family_letter(f));
	return std::string(letters.begin(), letters.end());
}

// Does a result at point @p speak for the cell (page_shift, dev)?
bool applies(const Lemma &l, const Point &p, unsigned ps, Device dev) {
	if ((l.reads & kReadsPageShift) && p.page_shift != ps)
		return false;
	if ((l.reads & (kReadsDevice | kReadsDevMax)) && p.dev != dev)
		return false;
	return true;
}

const MatrixCell &cell(const MatrixResult &m, unsigned mask, unsigned ps, Device dev) {
	for (const auto &c : m.cells)
		if (c.mask == mask && c.page_shift == ps && c.dev == dev)
			return c;
	throw std::logic_error("matrix cell missing");
}

std::string page_name(unsigned ps) { return fmt::format("{}K", 1u << (ps - 10)); }

// Cells where @mask fails an invariant that @base does not: what adding the
// patches of mask \ base introduces.
std::map<std::string, std::vector<const MatrixCell *>> introduced(const MatrixResult &m, unsigned mask,
								   unsigned base) {
	std::map<std::string, std::vector<const MatrixCell *>> out;
	for (unsigned ps : lemmas::kPageShifts)
		for (Device d : lemmas::kDevices) {
			const MatrixCell &with = cell(m, mask, ps, d);
			const MatrixCell &without = cell(m, base, ps, d);
			for (const auto &f : with.failing)
				if (!without.failing.count(f))
					out[f].push_back(&with);
		}
	return out;
}

std::string where(const std::vector<const MatrixCell *> &cells) {
	const size_t all = std::size(lemmas::kPageShifts) * std::size(lemmas::kDevices);
	if (cells.size() == all)
		return "every device and page size";
	std::string s;
	for (Device d : lemmas::kDevices) {
		std::string pages;
		for (const auto *c : cells)
			if (c->dev == d)
				pages += (pages.empty() ? "" : ",") + page_name(c->page_shift);
		if (!pages.empty())
			s += (s.empty() ? "" : "; ") + std::string(name(d)) + " " + pages;
	}
	return s;
}

std::string listing(const std::map<std::string, std::vector<const MatrixCell *>> &m) {
	std::string s;
	for (const auto &[inv, cells] : m)
		s += fmt::format("{}{} ({})", s.empty() ? "" : "; ", inv, where(cells));
	return s;
}

// What adding P to @mask \ {P} breaks; the failures P brings even to the
// full series (so not for want of the missing patch) are listed apart.
std::string verdict_line(const MatrixResult &m, unsigned mask, unsigned p) {
	const auto all = introduced(m, mask, mask & ~p);
	const auto anyway = introduced(m, kAll, kAll & ~p);
	std::map<std::string, std::vector<const MatrixCell *>> intro, also;
	for (const auto &[inv, cells] : all) {
		const auto a = anyway.find(inv);
		for (const auto *c : cells) {
			bool in = false;
			if (a != anyway.end() && mask != kAll)
				for (const auto *x : a->second)
					in |= x->page_shift == c->page_shift && x->dev == c->dev;
			(in ? also : intro)[inv].push_back(c);
		}
	}
	std::string s = intro.empty() ? "safe" : "UNSAFE: " + listing(intro);
	if (!also.empty())
		s += " [as in the full series: " + listing(also) + "]";
	return s;
}

}  // namespace

Policies matrix_policies(unsigned mask) {
	Policies pol = preset_policies(Preset::net_next);
	for (unsigned i = 0; i < kNumPatches; ++i) {
		if (!(mask & (1u << i)))
			continue;
		const std::string kv = kPatches[i].policy;
		const size_t eq = kv.find('=');
		apply_policy(pol, kv.substr(0, eq), kv.substr(eq + 1));
	}
	return pol;
}

namespace {

std::string era_group(Preset p) { return "era " + std::string(name(p)); }

MatrixCell fill_cell(const std::vector<JobResult> &results, const std::string &group, unsigned ps, Device d) {
	MatrixCell c;
	c.page_shift = ps;
	c.dev = d;
	for (const auto &r : results) {
		if (r.job.group != group || !applies(*r.job.lemma, r.job.point, ps, d))
			continue;
		if (r.out.verdict == Verdict::unknown || (r.out.verdict == Verdict::counterexample && !r.out.confirmed))
			c.unknown = true;
		else if (r.out.verdict == Verdict::counterexample)
			c.failing.insert(std::string(id(r.job.lemma->inv)));
	}
	return c;
}

}  // namespace

MatrixResult run_matrix(const ProveOptions &o) {
	const auto t0 = Clock::now();
	std::vector<Job> jobs;
	std::vector<std::string> na;
	for (unsigned mask = 0; mask <= kAll; ++mask)
		for (const auto &l : catalogue())
			for (const auto &p : l.points(matrix_policies(mask)))
				jobs.push_back({&l, p, mask_name(mask), false});
	for (Preset pr : kAllPresets) {
		unsigned skipped = 0;
		std::string why;
		for (const auto &l : catalogue()) {
			why = not_applicable(l, preset_policies(pr));
			if (!why.empty()) {
				++skipped;
				continue;
			}
			for (const auto &p : l.points(preset_policies(pr)))
				jobs.push_back({&l, p, era_group(pr), false});
		}
		if (skipped)
			na.push_back(fmt::format("{}: {} lemmas not applicable ({})", name(pr), skipped,
						 not_applicable(catalogue().front(), preset_policies(pr))));
	}
	RunOptions ro;
	ro.jobs = o.jobs;
	ro.timeout_ms = o.timeout_ms;
	ro.scenarios = false;  // the table needs verdicts, not replays
	const auto results = run_jobs(jobs, ro);

	MatrixResult m;
	m.configs = static_cast<unsigned>(results.size());
	for (const auto &r : results)
		if (!r.shared) {
			++m.queries;
			m.cpu_s += r.out.cpu_seconds;
		}
	for (unsigned mask = 0; mask <= kAll; ++mask)
		for (unsigned ps : lemmas::kPageShifts)
			for (Device d : lemmas::kDevices) {
				MatrixCell c;
				c.mask = mask;
				c.page_shift = ps;
				c.dev = d;
				for (const auto &r : results) {
					if (r.job.group != mask_name(mask) || !applies(*r.job.lemma, r.job.point, ps, d))
						continue;
					if (r.out.verdict == Verdict::unknown ||
					    (r.out.verdict == Verdict::counterexample && !r.out.confirmed))
						c.unknown = true;
					else if (r.out.verdict == Verdict::counterexample)
						c.failing.insert(std::string(id(r.job.lemma->inv)));
				}
				m.ok = m.ok && !c.unknown;
				m.cells.push_back(c);
			}
	for (Preset pr : kAllPresets)
		for (unsigned ps : lemmas::kPageShifts)
			for (Device d : lemmas::kDevices) {
				MatrixCell c = fill_cell(results, era_group(pr), ps, d);
				c.preset = pr;
				m.ok = m.ok && !c.unknown;
				m.eras.push_back(c);
			}
	m.era_not_applicable = na;
	m.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
	return m;
}

nlohmann::json matrix_json(const MatrixResult &m) {
	nlohmann::json cells = nlohmann::json::array();
	for (const auto &c : m.cells)
		cells.push_back({{"patches", mask_name(c.mask)},
				 {"page_shift", c.page_shift},
				 {"device", std::string(name(c.dev))},
				 {"cell", cell_text(c)},
				 {"failing", std::vector<std::string>(c.failing.begin(), c.failing.end())},
				 {"unknown", c.unknown}});
	nlohmann::json pairs = nlohmann::json::array();
	for (unsigned p = 0; p < kNumPatches; ++p) {
		pairs.push_back({{"patch", kPatches[p].name}, {"without", "all others"},
				 {"verdict", verdict_line(m, 1u << p, 1u << p)}, {"question", "alone on net-next"}});
		for (unsigned q = 0; q < kNumPatches; ++q)
			if (q != p)
				pairs.push_back({{"patch", kPatches[p].name},
						 {"without", kPatches[q].name},
						 {"verdict", verdict_line(m, kAll & ~(1u << q), 1u << p)}});
	}
	nlohmann::json patches = nlohmann::json::array();
	for (const auto &p : kPatches)
		patches.push_back({{"patch", p.name}, {"policy", p.policy}});
	nlohmann::json eras = nlohmann::json::array();
	for (const auto &c : m.eras)
		eras.push_back({{"rules", std::string(name(c.preset))},
				{"page_shift", c.page_shift},
				{"device", std::string(name(c.dev))},
				{"cell", cell_text(c)},
				{"failing", std::vector<std::string>(c.failing.begin(), c.failing.end())},
				{"unknown", c.unknown}});
	return {{"base", "net-next"}, {"patches", patches}, {"cells", cells}, {"eras", eras},
		{"eras_not_applicable", m.era_not_applicable}, {"pairs", pairs},
		{"configs", m.configs}, {"queries", m.queries}, {"z3_cpu_s", m.cpu_s}, {"wall_s", m.wall_s}};
}

void print_matrix(std::FILE *out, const MatrixResult &m) {
	std::fprintf(out, "Soundness of the seed 000 series on the net-next rules: every lemma of the catalogue "
			  "under every\ncombination of patch 2 (truesize=len), 3 (lookup=niov), 4-5 "
			  "(max_frag=device), 6 (tx_niov=auto).\n");
	std::fprintf(out, "ok: every lemma proved.  Otherwise the invariant families with a Z3 counterexample: "
			  "S sizing,\nB bind, R rx, L lookup, F frag, T tcp truesize/wmem, D device descriptor, Z "
			  "zcrx; ? unknown.\n\n");
	std::fprintf(out, "%-12s", "");
	for (unsigned ps : lemmas::kPageShifts)
		std::fprintf(out, "| %-30s", (page_name(ps) + "iB pages").c_str());
	std::fprintf(out, "\n%-12s", "patches");
	for (size_t i = 0; i < std::size(lemmas::kPageShifts); ++i) {
		std::fprintf(out, "| ");
		for (Device d : lemmas::kDevices)
			std::fprintf(out, "%-6s", std::string(name(d)).c_str());
	}
	std::fprintf(out, "\n");
	for (unsigned mask = 0; mask <= kAll; ++mask) {
		std::fprintf(out, "%-12s", mask_name(mask).c_str());
		for (unsigned ps : lemmas::kPageShifts) {
			std::fprintf(out, "| ");
			for (Device d : lemmas::kDevices)
				std::fprintf(out, "%-6s", cell_text(cell(m, mask, ps, d)).c_str());
		}
		std::fprintf(out, "\n");
	}
	std::fprintf(out, "\nIs patch P safe without patch Q?  What P breaks when every other patch but Q is "
			  "applied\n(compared with the same series without P); failures P brings even with Q are "
			  "in [brackets].\n");
	for (unsigned p = 0; p < kNumPatches; ++p) {
		std::fprintf(out, "  patch %-3s alone on net-next: %s\n", kPatches[p].name,
			     verdict_line(m, 1u << p, 1u << p).c_str());
		for (unsigned q = 0; q < kNumPatches; ++q)
			if (q != p)
				std::fprintf(out, "  patch %-3s without %-3s: %s\n", kPatches[p].name, kPatches[q].name,
					     verdict_line(m, kAll & ~(1u << q), 1u << p).c_str());
	}
	std::fprintf(out, "  full series vs net-next: %s\n", verdict_line(m, kAll, kAll).c_str());
	std::fprintf(out, "\nEach era's own rules (the presets), the same lemmas (letters as above):\n%-17s", "");
	for (unsigned ps : lemmas::kPageShifts)
		std::fprintf(out, "| %-30s", (page_name(ps) + "iB pages").c_str());
	std::fprintf(out, "\n");
	for (Preset pr : kAllPresets) {
		std::fprintf(out, "%-17s", std::string(name(pr)).c_str());
		for (unsigned ps : lemmas::kPageShifts) {
			std::fprintf(out, "| ");
			for (Device d : lemmas::kDevices)
				for (const auto &c : m.eras)
					if (c.preset == pr && c.page_shift == ps && c.dev == d)
						std::fprintf(out, "%-6s", cell_text(c).c_str());
		}
		std::fprintf(out, "\n");
	}
	for (const auto &s : m.era_not_applicable)
		std::fprintf(out, "  %s\n", s.c_str());
	std::fprintf(out, "\n%u configurations, %u queries solved; Z3 cpu %.2f s, wall %.2f s%s\n", m.configs,
		     m.queries, m.cpu_s, m.wall_s, m.ok ? "" : "; UNKNOWN cells: FAILED");
}

}  // namespace niov::smt
