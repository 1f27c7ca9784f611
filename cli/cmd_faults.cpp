// faults: the fault-injection sweep over bind scenarios (model/check/faults.hpp).
// Exit 0 when every injected failure gave an allowed errno and left nothing
// behind, 1 on a finding, 2 on bad input (no plugin, a plugin without fault
// injection, no scenario that could be swept).
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "check_core.hpp"
#include "commands.hpp"
#include "faults.hpp"
#include "rules_opts.hpp"

namespace niov::cli {

namespace {

nlohmann::json sweep_json(const FaultSweep &s) {
	auto calls = nlohmann::json::object();
	for (uint32_t k = 0; k < NIOV_FAULT_COUNT_; ++k)
		calls[std::string(fault_kind_name(k))] = s.calls[k];
	auto list = [](const std::vector<Violation> &vs) {
		auto a = nlohmann::json::array();
		for (const auto &v : vs)
			a.push_back({{"invariant", v.invariant}, {"point", v.step}, {"detail", v.detail}});
		return a;
	};
	return {{"scenario", s.scenario},	  {"not_run", s.not_run},	 {"calls", calls},
		{"injected", s.points.size()}, {"violations", list(s.violations)}, {"known", list(s.known)}};
}

}  // namespace

FaultsRun run_faults(PluginImpl &impl, const RulesInForce &rules, const std::vector<std::string> &files) {
	FaultsRun run;
	for (const auto &f : files) {
		auto r = load_scenario_file(f);
		if (!r.scenario)
			throw UsageError(r.error.message);
		run.sweeps.push_back(sweep_faults(*r.scenario, impl, rules));
		const auto &s = run.sweeps.back();
		run.injected += s.points.size();
		run.findings += s.violations.size();
		run.swept += s.not_run.empty();
	}
	return run;
}

int cmd_faults(Args &args) {
	const bool json = args.flag("json");
	const std::string path = args.option("impl", "");
	const RulesRequest request = rules_request(args);
	auto files = args.positional();
	args.done();
	if (path.empty())
		throw UsageError("needs --impl PLUGIN (the code whose error paths are swept)");
	PluginImpl impl(path);
	if (!impl.has_faults())
		throw UsageError(fmt::format("{}: not run: {} (nothing to inject)", path,
					     "plugin lacks fault injection (NIOV_CAP_FAULTS)"));
	if (files.empty())
		files.push_back(std::string(NIOV_SOURCE_DIR) + "/corpora/scenarios");
	const RulesInForce rules = resolve_rules(request, &impl);
	const FaultsRun run = run_faults(impl, rules, scenario_files(files));
	if (run.swept == 0)
		throw UsageError("no scenario's bind could be swept (every bind fails or needs a path the plugin lacks)");

	if (json) {
		auto rows = nlohmann::json::array();
		for (const auto &s : run.sweeps)
			rows.push_back(sweep_json(s));
		std::puts(nlohmann::json{{"impl", path},
					 {"rules", rules_json(rules)},
					 {"scenarios", rows},
					 {"swept", run.swept},
					 {"injected", run.injected},
					 {"findings", run.findings},
					 {"verdict", run.findings ? "violation" : "clean"}}
				  .dump(2)
				  .c_str());
		return run.findings ? kExitViolation : kExitClean;
	}
	std::printf("niovcheck faults: %s\n%s\n", path.c_str(), rules_text(rules).c_str());
	for (const auto &s : run.sweeps) {
		if (!s.not_run.empty()) {
			std::printf("%-48s not run: %s\n", s.scenario.c_str(), s.not_run.c_str());
			continue;
		}
		std::string calls;
		for (uint32_t k = 0; k < NIOV_FAULT_COUNT_; ++k)
			if (s.calls[k])
				calls += fmt::format("{}{} {}", calls.empty() ? "" : ", ", fault_kind_name(k), s.calls[k]);
		std::printf("%-48s %zu failures injected (%s): %s\n", s.scenario.c_str(), s.points.size(),
			    calls.c_str(), s.clean() ? "clean" : "FINDINGS");
		for (const auto &v : s.violations)
			std::printf("  VIOLATION %s: %s | replay: niovcheck faults --impl %s %s\n", v.invariant.c_str(),
				    v.detail.c_str(), path.c_str(), s.scenario.c_str());
		for (const auto &v : s.known)
			std::printf("  known finding of the inputs, not counted: %s: %s\n", v.invariant.c_str(),
				    v.detail.c_str());
	}
	std::printf("%zu scenarios swept, %zu not run, %llu failures injected, %llu findings\n", run.swept,
		    run.sweeps.size() - run.swept, static_cast<unsigned long long>(run.injected),
		    static_cast<unsigned long long>(run.findings));
	return run.findings ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
