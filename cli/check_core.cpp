#include "check_core.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "args.hpp"
#include "findings.hpp"
#include "breadcrumb.hpp"
#include "plugin_load.hpp"
#include "report_json.hpp"
#include "rules_opts.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
	std::sort(v.begin(), v.end());
	v.erase(std::unique(v.begin(), v.end()), v.end());
	return v;
}

std::string joined(const std::vector<std::string> &v) {
	std::string s;
	for (const auto &x : v)
		s += (s.empty() ? "" : ",") + x;
	return s;
}

// A scenario run under other policies than its own: its expect lines were
// written for those, so what it must show now is only what its inputs
// explain (model/check/findings.hpp); anything else the model or the plugin
// reports, and every difference, is a finding.
void expect_known_only(Scenario &sc, const RunReport &r) {
	sc.expect_bind_err.reset();
	sc.expect_violations.clear();
	for (const auto *side : {&r.model, r.impl ? &*r.impl : nullptr})
		if (side)
			for (const auto &v : side->violations)
				// judge() leaves out a plugin's resource findings the inputs explain
				if (is_known_finding(sc, v.invariant) && (side == &r.model || v.invariant.rfind("res.", 0) != 0))
					sc.expect_violations.push_back(v.invariant);
}

}  // namespace

Verdict judge(const Scenario &sc, const RunReport &r) {
	Verdict v;
	std::vector<std::string> got;
	for (const auto &x : r.model.violations)
		got.push_back(x.invariant);
	// The model keeps no resources: what a plugin's counters show that the
	// scenario explains (model/check/findings.hpp) is no surprise to its author.
	if (r.impl)
		for (const auto &x : r.impl->violations)
			if (x.invariant.rfind("res.", 0) != 0 || !is_known_finding(sc, x.invariant))
				got.push_back(x.invariant);
	got = sorted_unique(std::move(got));
	const std::vector<std::string> want = sorted_unique(sc.expect_violations);
	if (got != want) {
		v.as_expected = false;
		v.note = fmt::format("violations [{}] expected [{}]", joined(got), want.empty() ? "none" : joined(want));
	}
	const int err = RunReport::bind_err(r.model);
	if (sc.expect_bind_err && *sc.expect_bind_err != err) {
		v.as_expected = false;
		v.note += fmt::format("{}bind {} expected {}", v.note.empty() ? "" : "; ", errno_name(err),
				      errno_name(*sc.expect_bind_err));
	}
	if (!r.differences.empty()) {
		v.as_expected = false;
		v.note += fmt::format("{}{} model/plugin differences", v.note.empty() ? "" : "; ",
				      r.differences.size());
	}
	return v;
}

std::vector<std::string> scenario_files(const std::vector<std::string> &paths) {
	namespace fs = std::filesystem;
	std::vector<std::string> out;
	for (const auto &path : paths) {
		std::error_code ec;
		if (fs::is_directory(path, ec)) {
			std::vector<std::string> found;
			for (const auto &e : fs::recursive_directory_iterator(path, ec))
				if (e.is_regular_file() && e.path().extension() == ".scn")
					found.push_back(e.path().string());
			std::sort(found.begin(), found.end());
			out.insert(out.end(), found.begin(), found.end());
			continue;
		}
		if (!fs::exists(path, ec))
			throw UsageError(fmt::format("{}: no such file or directory", path));
		out.push_back(path);
	}
	return out;
}

CheckRun check_files(const std::vector<std::string> &files, Impl *impl, const std::optional<RulesInForce> &rules,
		     bool all_rules, bool same_preset) {
	CheckRun run;
	for (const auto &f : files) {
		auto parsed = load_scenario_file(f);
		if (!parsed.scenario)
			throw UsageError(parsed.error.message);
		CheckRow row;
		row.file = f;
		row.scenario = std::move(*parsed.scenario);
		const bool pinned = rules && !all_rules && same_preset && !rules->matches(row.scenario) &&
				    row.scenario.cfg.preset == rules->preset;
		if (rules && !all_rules && !rules->matches(row.scenario) && !pinned) {
			row.skipped = fmt::format("rules {} are not the rules in force",
						  RulesInForce{row.scenario.cfg.preset, row.scenario.cfg.policy, ""}.label());
			++run.skipped;
			run.rows.push_back(std::move(row));
			continue;
		}
		if (rules && !all_rules)
			rules->pin(row.scenario);  // the same policies: only marks them as the rules under test
		row.report = run_scenario(row.scenario, impl);
		if (pinned)
			expect_known_only(row.scenario, row.report);
		row.verdict = judge(row.scenario, row.report);
		++run.ran;
		run.unexpected += !row.verdict.as_expected;
		run.rows.push_back(std::move(row));
	}
	return run;
}

std::unique_ptr<PluginImpl> impl_option(Args &args, const worker::Limits &lim) {
	const std::string path = args.option("impl", "");
	if (path.empty())
		return nullptr;
	return load_plugin(path, lim);
}

nlohmann::json leak_findings(PluginImpl *impl, const RunReport &r, const std::string &file, const std::string &flags) {
	auto out = nlohmann::json::array();
	if (!impl || !r.impl || r.impl->bind.err)
		return out;
	// Cheap next to the run itself: fewer cycles when the niov table is large.
	const unsigned cycles = r.impl->bind.num_niovs > (1u << 18) ? 3 : 8;
	if (auto leak = impl->leak_check(cycles))
		out.push_back(to_json(leak_finding(*leak, impl->name(), "scenario " + file,
						   replay_command(file, impl->path(), flags))));
	return out;
}

worker::Outcome run_isolated(const Scenario &sc, const std::string &file, PluginImpl *impl, const RunOptions &opts,
			     const worker::Limits &lim, const std::string &flags, const ScenarioPayload &job,
			     const worker::PartialFn &pieces) {
	return worker::run(
		[&] {
			crumb_context("scenario " + file);
			const RunReport r = run_scenario(sc, impl, opts);
			return job(r, leak_findings(impl, r, file, flags)).dump();
		},
		lim, pieces);
}

}  // namespace niov::cli
