// Engine "faults": the fault-injection sweep: each shipped scenario's bind
// with a failure injected into its Nth allocation, for every N.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "check_core.hpp"
#include "commands.hpp"
#include "engines/engine.hpp"
#include "plugin.hpp"

namespace niov::cli {

// Its parts, named after it: a unity build compiles the engines as one file.
namespace faults_parts {

namespace fs = std::filesystem;

EngineResult run(const EngineInput &in, const Progress &p) {
	EngineResult r;
	r.name = "faults";
	const auto t0 = std::chrono::steady_clock::now();
	PluginImpl impl(in.plugin);
	if (!impl.has_faults()) {
		r.note = "the plugin lacks fault injection (NIOV_CAP_FAULTS)";
		return r;
	}
	p.at("the fault sweep");
	const auto files = scenario_files({in.req.source_dir + "/corpora/scenarios"});
	const FaultsRun run = run_faults(impl, in.rules, files);
	for (const auto &sw : run.sweeps)
		if (sw.not_run.empty())
			r.items.push_back({fs::path(sw.scenario).filename().string(),
					   sw.violations.empty() ? EngineStatus::ok : EngineStatus::finding,
					   sw.violations.empty() ? "" : sw.violations.front().invariant + ": " + sw.violations.front().detail});
	for (const auto &sw : run.sweeps)
		for (const auto &v : sw.violations) {
			Observation ob;
			ob.engine = "faults";
			ob.what = sw.scenario;
			ob.invariant = v.invariant;
			ob.detail = v.detail;
			// A failure injected into the Nth call is the sweep's own case:
			// its replay is the sweep of that one file.
			ob.replay = fmt::format("{} faults --impl {} {} {}", in.niovcheck, in.plugin, in.rules.flags(),
						fs::absolute(sw.scenario).string());
			r.observations.push_back(std::move(ob));
		}
	r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	r.runs = fmt::format("{} binds swept, {} failures injected", run.swept, run.injected);
	if (run.swept == 0) {
		r.note = "no shipped scenario's bind could be swept";
		return r;
	}
	r.note = fmt::format("{} of {} scenarios not swept (their bind fails or needs a path the plugin lacks)",
			     files.size() - run.swept, files.size());
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

}  // namespace faults_parts

Engine faults_engine() {
	return {.name = "faults", .run = faults_parts::run, .timeout = [](const EngineInput &) { return 600u; }};
}

}  // namespace niov::cli
