// Engine "replay": the shipped scenarios and regressions whose rules are the
// rules in force, through the plugin, compared with the model.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "breadcrumb.hpp"
#include "check_core.hpp"
#include "engines/engine.hpp"
#include "findings.hpp"
#include "plugin.hpp"
#include "plugin_load.hpp"
#include "report.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

// Its parts, named after it: a unity build compiles the engines as one file.
namespace replay_parts {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The shipped cases: the regressions, then the scenarios, each sorted.
std::vector<std::string> shipped(const EngineInput &in) {
	return scenario_files({in.req.source_dir + "/corpora/regressions", in.req.source_dir + "/corpora/scenarios"});
}

std::string first_fired(const RunReport &r, const Scenario &sc) {
	for (const Trace *t : {&r.model, r.impl ? &*r.impl : nullptr}) {
		if (!t)
			continue;
		for (const auto &v : t->violations)
			if (std::find(sc.expect_violations.begin(), sc.expect_violations.end(), v.invariant) ==
			    sc.expect_violations.end())
				return v.invariant;
	}
	return r.differences.empty() ? "expectation" : "difference";
}

// A scenario that expects violations and ran as expected against the code
// shows a known finding of the rules in force, in the code's own trace.
std::optional<Observation> known_shown(const EngineInput &in, const CheckRow &row) {
	const auto &want = row.scenario.expect_violations;
	if (want.empty() || !row.report.impl)
		return std::nullopt;
	Observation o;
	o.engine = "replay";
	o.what = row.file;
	for (const auto &v : row.report.impl->violations)
		if (std::find(want.begin(), want.end(), v.invariant) != want.end()) {
			o.detail = fmt::format("{} at step {}: {}", v.invariant, v.step, v.detail);
			break;
		}
	if (o.detail.empty())
		return std::nullopt;
	for (const auto &inv : want)
		o.invariant += (o.invariant.empty() ? "" : " ") + inv;
	o.scenario = fs::absolute(row.file).string();
	o.replay = in.replay_command(o.scenario);
	return o;
}

EngineResult run(const EngineInput &in, const Progress &p) {
	EngineResult r;
	r.name = "replay";
	const auto t0 = Clock::now();
	PluginImpl impl(in.plugin);
	// The scenarios first, as `all` has always listed them.
	const auto files =
		scenario_files({in.req.source_dir + "/corpora/scenarios", in.req.source_dir + "/corpora/regressions"});
	unsigned ran = 0, skipped = 0;
	uint64_t done = 0;
	for (const auto &f : files) {
		p.count(done++, files.size());
		if (in.skip.count(f))
			continue;
		p.at(f);
		// Rules with policies of their own (a kernel tree's choices) take
		// their preset's scenarios too, under those policies.
		const CheckRun run = check_files({f}, &impl, in.rules, false, !in.rules.overrides().empty());
		ran += run.ran;
		skipped += run.skipped;
		for (const auto &row : run.rows) {
			bool known_bug = false;
			if (row.skipped.empty() && row.verdict.as_expected)
				if (auto k = known_shown(in, row)) {
					// The era's own bug (what the May 2026 fix refuses):
					// the tree has it, so it is a finding; the others are
					// the inputs' (exporters, devices) and only listed.
					if (unchecked_layout(row.scenario)) {
						k->invariant = std::string(kKnownBugPrefix) + k->invariant;
						known_bug = true;
						r.items.push_back({fs::path(f).filename().string(), EngineStatus::finding, k->detail});
						r.observations.push_back(std::move(*k));
					} else {
						r.known.push_back(std::move(*k));
					}
				}
			if (row.skipped.empty() && !known_bug)
				r.items.push_back({fs::path(f).filename().string(),
						   row.verdict.as_expected ? EngineStatus::ok : EngineStatus::finding,
						   row.verdict.note});
			if (!row.skipped.empty() || row.verdict.as_expected)
				continue;
			Observation o;
			o.engine = "replay";
			o.what = f;
			o.invariant = first_fired(row.report, row.scenario);
			o.detail = row.verdict.note;
			o.scenario = fs::absolute(f).string();
			o.replay = in.replay_command(o.scenario);
			r.observations.push_back(std::move(o));
		}
	}
	r.seconds = since(t0);
	r.runs = fmt::format("{} scenarios", ran);
	r.note = fmt::format("{} of {} shipped scenarios have other rules", skipped, files.size());
	if (ran == 0) {
		r.status = EngineStatus::not_run;
		r.note = fmt::format("no shipped scenario has the rules {} ({} have others)", in.rules.label(), skipped);
		return r;
	}
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

// The scoreboard: the variant's scenarios (its rules only: other rules
// differ by construction) in a worker, until its slip shows.
Catch hunt(const EngineInput &in, const Variant &v) {
	Catch c;
	c.ran = true;
	const auto start = Clock::now();
	auto impl = load_plugin(v.path, in.limits);
	std::vector<std::pair<std::string, Scenario>> judged;
	for (const auto &f : shipped(in)) {
		auto parsed = load_scenario_file(f);
		if (!parsed.scenario)
			continue;
		if (v.rules.matches(*parsed.scenario))
			judged.emplace_back(f, std::move(*parsed.scenario));
	}
	// The plugin broke out of its contract: the catch if that is its slip.
	auto fault = [&](const WorkerFinding &f, const std::string &replay) {
		const Judged j = judge_finding(v, f.id);
		c.noticed = true;
		c.fault = j.fault;
		c.caught = j.caught;
		c.invariant = f.id;
		c.replay = replay;
		c.note = f.what + " (" + f.where + ")";
		c.seconds = since(start);
		return false;
	};
	worker::Batch b;
	b.items = judged.size();
	b.item = [&](size_t k) {
		const auto &[f, sc] = judged[k];
		crumb_context("scenario " + f);
		// What the scenario expects (a device's known limit, say) is no
		// catch; anything else the plugin shows is.
		const RunReport r = run_scenario(sc, impl.get());
		std::string fired;
		bool must = false;
		for (const auto &x : r.impl->violations) {
			if (std::find(sc.expect_violations.begin(), sc.expect_violations.end(), x.invariant) !=
			    sc.expect_violations.end())
				continue;
			if (v.caught_by(x.invariant))
				must = true;
			if (fired.empty())
				fired = x.invariant;
		}
		if ((v.must_catch == "difference" || v.must_catch.empty()) && !r.differences.empty())
			must = true;
		if (fired.empty() && !r.differences.empty())
			fired = "difference: " + r.differences.front().what;
		nlohmann::json j{{"fired", fired}, {"must", must}};
		if (auto leak = impl->leak_check())
			j["leak"] = to_json(leak_finding(*leak, impl->name(), "scenario " + f, ""));
		return j.dump();
	};
	b.done = [&](size_t k, const std::string &result, uint64_t printed, const worker::Outcome &so_far) {
		const std::string replay = replay_command(judged[k].first, v.path, v.rules.flags());
		const nlohmann::json j = nlohmann::json::parse(result);
		if (printed) {
			worker::Outcome out = so_far;
			out.end = worker::End::result;
			out.stdout_bytes = printed;
			out.context = "scenario " + judged[k].first;
			return fault(*worker_finding(out, replay), replay);
		}
		if (j.contains("leak"))
			return fault(*finding_from_json(j["leak"]), replay);
		const std::string fired = j.value("fired", "");
		const bool must = j.value("must", false);
		if (fired.empty())
			return true;
		c.noticed = true;
		if (c.invariant.empty() || (must && !c.caught)) {
			c.invariant = must && !v.must_catch.empty() && v.must_catch != "difference" ? v.must_catch : fired;
			c.replay = replay;
			c.seconds = since(start);
		}
		c.caught |= must;
		return !must;
	};
	b.died = [&](size_t k, const worker::Outcome &o) {
		const std::string replay = replay_command(judged[k].first, v.path, v.rules.flags());
		return fault(*worker_finding(o, replay), replay);
	};
	worker::run_batch(b, in.limits);
	if (!c.noticed)
		c.seconds = since(start);
	return c;
}

// A child that died on a scenario: that file is the replay.
void died_at(const EngineInput &in, Observation &o) {
	if (std::error_code ec; fs::exists(o.what, ec)) {
		o.scenario = fs::absolute(o.what).string();
		o.replay = in.replay_command(o.scenario);
	}
}

}  // namespace replay_parts

Engine replay_engine() {
	return {.name = "replay", .run = replay_parts::run, .hunt = replay_parts::hunt,
		.timeout = [](const EngineInput &) { return 600u; },
		.died_at = replay_parts::died_at};
}

}  // namespace niov::cli
