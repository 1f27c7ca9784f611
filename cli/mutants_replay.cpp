// Scoreboard engine "replay": the shipped scenarios and the regressions,
// replayed through the variant and compared with the model.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "breadcrumb.hpp"
#include "mutants.hpp"
#include "plugin_load.hpp"
#include "report.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

namespace {

std::vector<std::string> scenario_files(const std::string &source_dir) {
	std::vector<std::string> out;
	for (const char *sub : {"corpora/scenarios", "corpora/regressions"}) {
		std::error_code ec;
		const auto dir = std::filesystem::path(source_dir) / sub;
		for (const auto &e : std::filesystem::recursive_directory_iterator(dir, ec))
			if (e.is_regular_file() && e.path().extension() == ".scn")
				out.push_back(e.path().string());
	}
	std::sort(out.begin(), out.end());
	return out;
}

}  // namespace

Catch replay_engine(const Variant &v, const MutantsOptions &opt) {
	Catch c;
	c.ran = true;
	const auto start = std::chrono::steady_clock::now();
	auto impl = load_plugin(v.path, opt.limits);
	std::vector<std::pair<std::string, Scenario>> judged;
	for (const auto &f : scenario_files(opt.source_dir)) {
		auto parsed = load_scenario_file(f);
		if (!parsed.scenario)
			continue;
		// Judge the variant by its rules only: other rules differ by
		// construction.
		if (v.rules.matches(*parsed.scenario))
			judged.emplace_back(f, std::move(*parsed.scenario));
	}
	auto elapsed = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
	// The plugin broke out of its contract: the catch if that is its slip.
	auto fault = [&](const WorkerFinding &f, const std::string &replay) {
		const Judged j = judge_finding(v, f.id);
		c.noticed = true;
		c.fault = j.fault;
		c.caught = j.caught;
		c.invariant = f.id;
		c.replay = replay;
		c.note = f.what + " (" + f.where + ")";
		c.seconds = elapsed();
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
			c.seconds = elapsed();
		}
		c.caught |= must;
		return !must;
	};
	b.died = [&](size_t k, const worker::Outcome &o) {
		const std::string replay = replay_command(judged[k].first, v.path, v.rules.flags());
		return fault(*worker_finding(o, replay), replay);
	};
	worker::run_batch(b, opt.limits);
	if (!c.noticed)
		c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	return c;
}

}  // namespace niov::cli
