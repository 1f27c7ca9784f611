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
		// Judge the variant by its rules only: other rules differ by
		// construction.
		if (!v.rules.matches(sc))
			continue;
		const RunReport r = run_scenario(sc, &impl);
		// What the scenario expects (a device's known limit, say) is no
		// catch; anything else the plugin shows is.
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
		if (fired.empty())
			continue;
		c.noticed = true;
		if (c.invariant.empty() || (must && !c.caught)) {
			c.invariant = must && !v.must_catch.empty() && v.must_catch != "difference" ? v.must_catch : fired;
			c.replay = opt.bin_dir + "/niovcheck replay " + f + " --impl " + v.path + " " + v.rules.flags();
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
