// props: the property checks outside ctest (what CI and the main job run).
// Per property: cases run, pass/fail, cases/s and, on failure, the shrunk
// case's scenario file and the replay command.  Seeded and deterministic.
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "rules_opts.hpp"
#include "props_isolated.hpp"
#include "runner.hpp"

namespace niov::cli {

namespace {

}  // namespace

int cmd_props(Args &args) {
	using namespace niov::props;
	const bool json = args.flag("json");
	const std::string impl = args.option("impl", "");
	const std::string only = args.option("property", "");
	const RulesRequest rules = rules_request(args);
	// A batch may take minutes on a slow machine; a plugin call, never.
	const worker::Limits lim = worker_limits(args);
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
	const std::string self = self_exe();
	if (!std::getenv("NIOV_CLI"))
		rp.niovcheck = self;

	std::vector<const Property *> run;
	for (const auto &p : all_properties())
		if (only.empty() || p.name == only)
			run.push_back(&p);
	if (run.empty())
		throw UsageError(fmt::format("no property named '{}'", only));

	const auto list = std::filesystem::path(self).parent_path().parent_path() / "lib" / "niov_plugins.txt";
	const LoadedTarget lt = load_target(impl, list.string(), rules, lim);
	std::string against;
	for (size_t i = 0; i < kNumPresets; ++i)
		if (lt.target.impl[i])
			against += (against.empty() ? "" : ", ") + lt.target.impl_path[i];
	if (against.empty())
		against = "the model alone";
	if (lt.rules)
		rp.rules_flags = lt.rules->flags();
	const std::string rules_line = lt.rules ? rules_text(*lt.rules)
						: "rules: every preset, each against the kernel-shaped plugin declaring it";

	if (!json)
		std::printf("niovcheck props: seed %#llx, %llu cases per property, against %s\n%s\n\n%-28s %9s  %-6s %10s %8s %10s\n",
			    static_cast<unsigned long long>(rp.seed), static_cast<unsigned long long>(rp.cases),
			    against.c_str(), rules_line.c_str(), "property", "cases", "result", "cases/s", "seconds",
			    "cpu cases/s");
	auto rows = nlohmann::json::array();
	int failed = 0, reported = 0, not_run = 0;
	PropsRun pr;
	pr.order = run;
	pr.each = [&](const IsolatedProperty &ip) {
		const Outcome &o = ip.outcome;
		failed += !o.passed && o.not_run.empty();
		not_run += !o.not_run.empty();
		++reported;
		auto findings = nlohmann::json::array();
		for (const auto &f : ip.findings)
			findings.push_back(to_json(f));
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
					{"description", o.description},
					{"message", o.message},
					{"findings", findings},
					{"run", ip.run}});
			return;
		}
		if (!o.not_run.empty()) {
			std::printf("%-28s %9s  not run (%s)\n", o.name.c_str(), "-", o.not_run.c_str());
			return;
		}
		std::printf("%-28s %9llu  %-6s %10.0f %8.2f %10.0f\n", o.name.c_str(),
			    static_cast<unsigned long long>(o.cases), o.passed ? "ok" : "FAIL", o.rate(), o.seconds,
			    o.cpu_rate());
		if (!ip.findings.empty())
			for (const auto &f : ip.findings)
				std::fputs(to_text(f).c_str(), stdout);
		else if (!ip.run)
			std::printf("  %s\n", o.message.c_str());
		else if (!o.passed)
			std::printf("%s\n", failure_text(o).c_str());
		std::fflush(stdout);
	};
	run_properties_isolated(pr, lt, rp, lim);
	if (json)
		std::puts(nlohmann::json{{"schema", "niovcheck-props/1"},
					 {"rules", lt.rules ? rules_json(*lt.rules) : nlohmann::json(nullptr)},
					 {"seed", rp.seed},
					 {"cases", rp.cases},
					 {"against", against},
					 {"properties", rows},
					 {"failed", failed},
					 {"not_run", not_run},
					 {"missing", static_cast<int>(run.size()) - reported}}
				  .dump(2)
				  .c_str());
	else
		std::printf("\n%zu properties, %d failed%s\n", run.size(), failed,
			    not_run ? fmt::format(", {} not run", not_run).c_str() : "");
	// Every property asked for has its row, or the run did not finish.
	const bool missing = reported != static_cast<int>(run.size());
	if (missing && !json)
		std::printf("%zu properties NOT RUN\n", run.size() - static_cast<size_t>(reported));
	if (failed || missing)
		return kExitViolation;
	if (not_run == static_cast<int>(run.size()))
		throw UsageError("no property could run against this implementation (see above)");
	return kExitClean;
}

}  // namespace niov::cli
