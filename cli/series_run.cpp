#include "series_run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "series_prepare.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

std::set<std::string> keys_of(const SeriesStep &s) {
	std::set<std::string> k;
	for (const auto &f : s.run->verdict.findings)
		k.insert(f.key);
	return k;
}

// "--rules P --policy K=V ...": what the user asked for, for the coverage run.
std::string user_rule_flags(const RulesRequest &r) {
	std::string out;
	if (!r.rules.empty())
		out += "--rules " + r.rules;
	for (const auto &p : r.policies)
		out += " --policy " + p;
	return out;
}

void measure(SeriesStep &s, const AllRequest &req, const SeriesOptions &opt) {
	if (s.added.empty())
		return;
	const auto engines = coverage_engines(req);
	s.coverage = measure_coverage(s.tree, req, engines, s.run->ctx.cases, user_rule_flags(req.rules),
				      fmt::format("{}/step-{}-coverage", opt.work, s.index), s.run->ctx.niovcheck);
	if (!s.coverage.ran) {
		s.coverage_warning = fmt::format("its added lines were not measured: {}", s.coverage.note);
		return;
	}
	s.patch_coverage = patch_coverage(s.coverage.lines, s.added);
	const PatchCoverage &pc = s.patch_coverage;
	if (pc.code && !pc.exercised)
		s.coverage_warning = fmt::format("no engine executed any of its {} added line{} of code", pc.code,
						 pc.code == 1 ? "" : "s");
}

}  // namespace

const char *role_name(FileRole r) {
	switch (r) {
	case FileRole::compiled: return "compiled";
	case FileRole::fill: return "compiled (the TX fill)";
	case FileRole::rules: return "read for the rules, not compiled";
	case FileRole::unread: return "not read (devmem.c does not include it)";
	case FileRole::not_compiled: return "not compiled";
	}
	return "?";
}

const Finding *SeriesStep::finding(const std::string &key) const {
	for (const auto &f : run->verdict.findings)
		if (f.key == key)
			return &f;
	return nullptr;
}

std::string SeriesStep::title() const { return patch ? patch->subject : "base"; }

SeriesVerdict run_series(const SeriesSource &src, const AllRequest &req, const SeriesOptions &opt) {
	const auto t0 = std::chrono::steady_clock::now();
	SeriesVerdict v;
	v.source = &src;
	v.req = req;
	v.opt = opt;
	v.steps = prepare_steps(src, req, opt);
	std::map<std::string, unsigned> came_in;  // finding key -> the step that brought it
	for (auto &s : v.steps) {
		const auto ts = std::chrono::steady_clock::now();
		if (s.same_as >= 0) {
			s.run = v.steps[s.same_as].run;
		} else {
			if (!req.quiet)
				std::fprintf(stderr, "niovcheck kernel series: checking %s (%zu of %zu)\n",
					     s.patch ? s.patch->subject.c_str() : "the base", static_cast<std::size_t>(s.index) + 1,
					     v.steps.size());
			AllRequest r = req;
			r.kernel = s.tree;
			r.json = r.tap = false;
			r.junit.clear();
			r.work_dir = fmt::format("{}/step-{}", opt.work, s.index);
			s.run = check_all(r);
			if (!opt.coverage)
				s.coverage.note = "off (--no-coverage)";
			else if (s.index > 0)
				measure(s, req, opt);
		}
		const std::set<std::string> now = keys_of(s);
		if (s.index == 0) {
			for (const auto &k : now) {
				s.carried.emplace_back(k, 0);
				came_in[k] = 0;
			}
		} else {
			const std::set<std::string> before = keys_of(v.steps[s.index - 1]);
			for (const auto &f : s.run->verdict.findings) {
				if (before.count(f.key)) {
					s.carried.emplace_back(f.key, came_in[f.key]);
				} else {
					s.fresh.push_back(f.key);
					came_in[f.key] = s.index;
				}
			}
			for (const auto &k : before)
				if (!now.count(k))
					s.fixed.push_back(k);
			if (!s.fresh.empty() && v.first_bad < 0)
				v.first_bad = static_cast<int>(s.index);
		}
		if (!s.coverage_warning.empty())
			v.warnings.push_back(fmt::format("patch {} ({}): {}", s.index, s.patch->subject, s.coverage_warning));
		s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
	}
	v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return v;
}

}  // namespace niov::cli
