// Scoreboard engine "replay": the shipped scenarios and the regressions,
// replayed through the variant and compared with the model.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "mutants.hpp"
#include "plugin.hpp"
#include "report.hpp"

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
	PluginImpl impl(v.path);
	for (const auto &f : scenario_files(opt.source_dir)) {
		auto parsed = load_scenario_file(f);
		if (!parsed.scenario)
			continue;
		const Scenario &sc = *parsed.scenario;
		// The variants are tx-autosize with one slip: judge them there.
		if (sc.cfg.preset != Preset::tx_autosize || !(sc.cfg.policy == preset_policies(sc.cfg.preset)))
			continue;
		const RunReport r = run_scenario(sc, &impl);
		std::string fired;
		bool must = false;
		for (const auto &x : r.impl->violations) {
			if (x.invariant == v.must_catch)
				must = true;
			if (fired.empty())
				fired = x.invariant;
		}
		if (v.must_catch == "difference" && !r.differences.empty())
			must = true;
		if (fired.empty() && !r.differences.empty())
			fired = "difference: " + r.differences.front().what;
		if (fired.empty())
			continue;
		c.noticed = true;
		if (c.invariant.empty() || (must && !c.caught)) {
			c.invariant = must && v.must_catch != "difference" ? v.must_catch : fired;
			c.replay = "niovcheck replay " + f + " --impl " + v.path;
			c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		}
		if (must) {
			c.caught = true;
			break;
		}
	}
	if (!c.noticed)
		c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	return c;
}

}  // namespace niov::cli
