// props: the property checks outside ctest (what CI and the main job run).
// Per property: cases run, pass/fail, cases/s and, on failure, the shrunk
// case's scenario file and the replay command.  Seeded and deterministic.
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "runner.hpp"

namespace niov::cli {

namespace {

// This executable, for the replay command and to find build/lib.
std::string self_path() {
	std::error_code ec;
	auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
	return ec ? std::string("niovcheck") : p.string();
}

}  // namespace

int cmd_props(Args &args) {
	using namespace niov::props;
	const bool json = args.flag("json");
	const std::string impl = args.option("impl", "");
	const std::string only = args.option("property", "");
	RunParams rp;
	std::string err;
	if (!params_from_env(rp, err))
		throw UsageError(err);
	rp.cases = args.number("cases", rp.cases);
	rp.seed = args.number("seed", rp.seed);
	if (rp.cases == 0 || rp.cases > INT32_MAX)
		throw UsageError("--cases must be 1..2147483647");
	if (!args.positional().empty())
		throw UsageError("props takes no file arguments");
	args.done();
	const std::string self = self_path();
	if (!std::getenv("NIOV_CLI"))
		rp.niovcheck = self;

	std::vector<const Property *> run;
	for (const auto &p : all_properties())
		if (only.empty() || p.name == only)
			run.push_back(&p);
	if (run.empty())
		throw UsageError(fmt::format("no property named '{}'", only));

	const auto list = std::filesystem::path(self).parent_path().parent_path() / "lib" / "niov_plugins.txt";
	const LoadedTarget lt = load_target(impl, list.string());
	std::string against = impl;
	for (size_t i = 0; impl.empty() && i < kNumPresets; ++i)
		if (lt.target.impl[i])
			against += (against.empty() ? "" : ", ") + lt.target.impl_path[i];
	if (against.empty())
		against = "the model alone (no plugins found)";

	if (!json)
		std::printf("niovcheck props: seed %#llx, %llu cases per property, against %s\n\n%-28s %9s  %-6s %10s %8s %10s\n",
			    static_cast<unsigned long long>(rp.seed), static_cast<unsigned long long>(rp.cases),
			    against.c_str(), "property", "cases", "result", "cases/s", "seconds", "cpu cases/s");
	auto rows = nlohmann::json::array();
	int failed = 0, not_run = 0;
	for (const Property *p : run) {
		const Outcome o = run_property(*p, lt.target, rp);
		failed += !o.passed && o.not_run.empty();
		not_run += !o.not_run.empty();
		if (json) {
			rows.push_back({{"name", o.name},
					{"cases", o.cases},
					{"passed", o.passed},
					{"not_run", o.not_run},
					{"seconds", o.seconds},
					{"cases_per_s", o.rate()},
					{"cpu_seconds", o.cpu_seconds},
					{"scenario", o.scenario_file},
					{"replay", o.replay},
					{"reproduce", o.reproduce},
					{"message", o.message}});
			continue;
		}
		if (!o.not_run.empty()) {
			std::printf("%-28s %9s  not run (%s)\n", o.name.c_str(), "-", o.not_run.c_str());
			continue;
		}
		std::printf("%-28s %9llu  %-6s %10.0f %8.2f %10.0f\n", o.name.c_str(),
			    static_cast<unsigned long long>(o.cases), o.passed ? "ok" : "FAIL", o.rate(), o.seconds,
			    o.cpu_rate());
		if (!o.passed)
			std::printf("%s\n", failure_text(o).c_str());
		std::fflush(stdout);
	}
	if (json)
		std::puts(nlohmann::json{{"seed", rp.seed},
					 {"cases", rp.cases},
					 {"against", against},
					 {"properties", rows},
					 {"failed", failed},
					 {"not_run", not_run}}
				  .dump(2)
				  .c_str());
	else
		std::printf("\n%zu properties, %d failed%s\n", run.size(), failed,
			    not_run ? fmt::format(", {} not run", not_run).c_str() : "");
	if (failed)
		return kExitViolation;
	if (not_run == static_cast<int>(run.size()))
		throw UsageError("no property could run against this implementation (see above)");
	return kExitClean;
}

}  // namespace niov::cli
