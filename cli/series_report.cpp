#include "series_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "all_report.hpp"
#include "rules_opts.hpp"

namespace niov::cli {

namespace {

bool is_fresh(const SeriesStep &s, const std::string &key) {
	return std::find(s.fresh.begin(), s.fresh.end(), key) != s.fresh.end();
}

// KTAP descriptions and diagnostics stay on one line and keep '#' for directives.
std::string ktap_text(std::string s) {
	for (char &c : s)
		if (c == '\n' || c == '\r' || c == '#')
			c = ' ';
	return s;
}

std::string step_label(const SeriesStep &s) {
	return s.patch ? fmt::format("patch {}: {}", s.index, s.patch->subject) : "base";
}

nlohmann::json finding_json(const Finding &f) {
	std::vector<std::string> engines;
	for (const auto &o : f.seen_by)
		if (std::find(engines.begin(), engines.end(), o.engine) == engines.end())
			engines.push_back(o.engine);
	return {{"key", f.key},	      {"title", f.title},	  {"violates", f.violates},
		{"seen_by", engines}, {"observations", f.seen_by.size()}, {"scenario", f.scenario},
		{"replay", f.replay}, {"replay_reproduces", f.replay_reproduces}};
}

nlohmann::json step_json(const SeriesStep &s) {
	auto sections = nlohmann::json::array();
	for (const auto &sec : s.sections) {
		auto hunks = nlohmann::json::array();
		for (const auto &h : sec.hunks)
			hunks.push_back({{"header", h.header}, {"at", h.at}, {"offset", h.offset}, {"fuzz", h.fuzz}});
		sections.push_back({{"file", sec.path},
				    {"role", role_name(sec.role)},
				    {"compiled", sec.role == FileRole::compiled || sec.role == FileRole::fill},
				    {"applied", sec.applied},
				    {"hunks", sec.hunk_count},
				    {"applied_hunks", hunks},
				    {"added", sec.added},
				    {"removed", sec.removed}});
	}
	auto engines = nlohmann::json::array();
	for (const auto &e : s.run->verdict.engines)
		if (e.name != "kernel")
			engines.push_back({{"engine", e.name}, {"status", std::string(status_name(e.status))},
					   {"mark", engine_mark(s, e)}, {"runs", e.runs}, {"note", e.note},
					   {"seconds", e.seconds}});
	auto fresh = nlohmann::json::array(), carried = nlohmann::json::array();
	for (const auto &k : s.fresh)
		fresh.push_back(finding_json(*s.finding(k)));
	for (const auto &[k, from] : s.carried)
		carried.push_back({{"key", k}, {"since_step", from}});
	auto added = nlohmann::json::object();
	for (const auto &[f, lines] : s.added)
		added[f] = lines;
	nlohmann::json cov{{"measured", s.coverage.ran}, {"engines", s.coverage.engines}, {"added_lines", added},
			   {"note", s.coverage.note}, {"warning", s.coverage_warning}, {"seconds", s.coverage.seconds}};
	if (s.coverage.ran)
		cov.update({{"lines_added", s.patch_coverage.added},
			    {"lines_of_code", s.patch_coverage.code},
			    {"exercised", s.patch_coverage.exercised},
			    {"unexercised", s.patch_coverage.unexercised}});
	nlohmann::json j{{"step", s.index},
			 {"tree", s.tree},
			 {"plugin", s.build.plugin},
			 {"era", s.build.era.letter},
			 {"rules", rules_json(s.run->ctx.rules)},
			 {"rules_label", s.run->ctx.rules.label()},
			 {"rules_from_code", s.build.read.lines},
			 {"changes", s.changes},
			 {"sections", sections},
			 {"engines", engines},
			 {"new", fresh},
			 {"fixed", s.fixed},
			 {"carried", carried},
			 {"coverage", cov},
			 {"seconds", s.seconds}};
	if (s.patch) {
		j["patch"] = s.patch->name;
		j["subject"] = s.patch->subject;
		if (!s.patch->rev.empty())
			j["commit"] = s.patch->rev;
	}
	if (s.same_as >= 0)
		j["same_as_step"] = s.same_as;
	return j;
}

}  // namespace

std::string engine_mark(const SeriesStep &s, const EngineResult &e) {
	if (e.status == EngineStatus::not_run)
		return "not run";
	bool fresh = false, old = false;
	for (const auto &f : s.run->verdict.findings)
		for (const auto &o : f.seen_by)
			if (o.engine == e.name)
				(s.index > 0 && is_fresh(s, f.key) ? fresh : old) = true;
	return fresh ? "new" : old ? "old" : "ok";
}

nlohmann::json series_json(const SeriesVerdict &v) {
	const EngineInput &c = v.steps.front().run->ctx;
	auto steps = nlohmann::json::array();
	for (const auto &s : v.steps)
		steps.push_back(step_json(s));
	const char *kinds[] = {"files", "mbox", "range"};
	nlohmann::json j{{"schema", "niovcheck-series/1"},
			 {"base", v.source->base},
			 {"source", {{"kind", kinds[static_cast<int>(v.source->kind)]}, {"what", v.source->what}}},
			 {"budget", v.req.budget == Budget::nightly ? "nightly" : "presubmit"},
			 {"cases", c.cases},
			 {"fuzz_seconds", c.fuzz_seconds},
			 {"seed", v.req.seed},
			 {"coverage_engines", v.opt.coverage ? coverage_engines(v.req) : std::vector<std::string>{}},
			 {"steps", steps},
			 {"warnings", v.warnings},
			 {"seconds", v.seconds},
			 {"verdict", v.first_bad >= 0 ? "finding" : "clean"},
			 {"exit", v.exit_code()}};
	if (!v.source->base_rev.empty())
		j["source"]["base_commit"] = v.source->base_rev;
	if (v.first_bad >= 0) {
		const SeriesStep &s = v.steps[static_cast<std::size_t>(v.first_bad)];
		const Finding &f = *s.finding(s.fresh.front());
		j["first_bad"] = {{"step", s.index}, {"patch", s.patch->name}, {"subject", s.patch->subject},
				  {"finding", f.key},  {"replay", f.replay}};
	} else {
		j["first_bad"] = nullptr;
	}
	return j;
}

void print_series_ktap(std::FILE *out, const SeriesVerdict &v) {
	std::fprintf(out, "KTAP version 1\n1..%zu\n", v.steps.size());
	for (const auto &s : v.steps) {
		std::vector<const EngineResult *> engines;
		for (const auto &e : s.run->verdict.engines)
			if (e.name != "kernel")
				engines.push_back(&e);
		std::fprintf(out, "  KTAP version 1\n  # Subtest: %s\n  1..%zu\n", ktap_text(step_label(s)).c_str(),
			     engines.size());
		std::fprintf(out, "  # rules %s\n", ktap_text(s.run->ctx.rules.label()).c_str());
		if (s.same_as >= 0)
			std::fprintf(out, "  # the compiled files are those of step %d: its verdict stands\n", s.same_as);
		for (std::size_t i = 0; i < engines.size(); ++i) {
			const EngineResult &e = *engines[i];
			const std::string mark = engine_mark(s, e);
			if (mark == "not run") {
				std::fprintf(out, "  ok %zu %s # SKIP %s\n", i + 1, e.name.c_str(), ktap_text(e.note).c_str());
				continue;
			}
			for (const auto &f : s.run->verdict.findings) {
				const bool seen = std::any_of(f.seen_by.begin(), f.seen_by.end(),
							      [&](const Observation &o) { return o.engine == e.name; });
				if (!seen)
					continue;
				if (mark == "new" && is_fresh(s, f.key))
					std::fprintf(out, "  # new finding: %s\n", ktap_text(f.key).c_str());
				else if (!is_fresh(s, f.key))
					std::fprintf(out, "  # carried finding (not counted): %s\n", ktap_text(f.key).c_str());
			}
			std::fprintf(out, "  %s %zu %s\n", mark == "new" ? "not ok" : "ok", i + 1, e.name.c_str());
		}
		if (s.coverage.ran)
			std::fprintf(out, "# coverage: %u of %u added lines of code exercised\n", s.patch_coverage.exercised,
				     s.patch_coverage.code);
		if (!s.coverage_warning.empty())
			std::fprintf(out, "# WARNING: %s\n", ktap_text(s.coverage_warning).c_str());
		for (const auto &k : s.fresh)
			std::fprintf(out, "# new finding: %s\n# replay: %s\n", ktap_text(k).c_str(),
				     ktap_text(s.finding(k)->replay).c_str());
		std::fprintf(out, "%s %u %s\n", s.fresh.empty() ? "ok" : "not ok", s.index + 1, ktap_text(step_label(s)).c_str());
	}
	if (v.first_bad >= 0)
		std::fprintf(out, "# first bad patch: %s\n",
			     ktap_text(step_label(v.steps[static_cast<std::size_t>(v.first_bad)])).c_str());
}

std::string series_junit(const SeriesVerdict &v) {
	std::string suites;
	unsigned all_tests = 0, all_failures = 0;
	for (const auto &s : v.steps) {
		std::string cases;
		unsigned tests = 0, failures = 0, skipped = 0;
		const std::string cls = fmt::format("niovcheck.series.step{}", s.index);
		for (const auto &e : s.run->verdict.engines) {
			if (e.name == "kernel")
				continue;
			++tests;
			const std::string mark = engine_mark(s, e);
			cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n", cls,
					     xml_escape(e.name), e.seconds);
			if (mark == "not run") {
				cases += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(e.note));
				++skipped;
			} else if (mark == "new") {
				cases += "      <failure message=\"a finding this patch brought in\"/>\n";
				++failures;
			} else if (mark == "old") {
				cases += "      <system-out>findings from before this step only (not counted)</system-out>\n";
			}
			cases += "    </testcase>\n";
		}
		for (const auto &k : s.fresh) {
			const Finding &f = *s.finding(k);
			++tests, ++failures;
			cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n      <failure message=\"{}\">replay: {}</failure>\n    </testcase>\n",
					     cls, xml_escape("finding: " + k), xml_escape(f.title), xml_escape(f.replay));
		}
		if (s.index > 0 && !s.added.empty()) {
			++tests;
			cases += fmt::format("    <testcase classname=\"{}\" name=\"coverage\">\n", cls);
			if (!s.coverage_warning.empty()) {
				cases += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape("warning: " + s.coverage_warning));
				++skipped;
			} else if (s.coverage.ran) {
				cases += fmt::format("      <system-out>{} of {} added lines of code exercised</system-out>\n",
						     s.patch_coverage.exercised, s.patch_coverage.code);
			}
			cases += "    </testcase>\n";
		}
		all_tests += tests;
		all_failures += failures;
		suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n",
				      xml_escape(fmt::format("{} {}", s.index, step_label(s))), tests, failures, skipped,
				      s.seconds, cases);
	}
	return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"niovcheck kernel series\" "
			   "tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n{}</testsuites>\n",
			   all_tests, all_failures, v.seconds, suites);
}

}  // namespace niov::cli
