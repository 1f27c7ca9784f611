// replay / explain / check: run scenario files and report.
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "check_core.hpp"
#include "commands.hpp"
#include "plugin.hpp"
#include "report_json.hpp"
#include "rules_opts.hpp"

namespace niov::cli {

namespace {

std::unique_ptr<PluginImpl> impl_option(Args &args) {
	const std::string path = args.option("impl", "");
	if (path.empty())
		return nullptr;
	return std::make_unique<PluginImpl>(path);
}

// The rules a command runs under: with a plugin, the flags or what it
// declares (an error if neither); without one, the flags if given, else
// none (every scenario runs under its own rules).
std::optional<RulesInForce> rules_for(const RulesRequest &req, const PluginImpl *impl) {
	if (!impl && !req.given())
		return std::nullopt;
	return resolve_rules(req, impl);
}

std::string shown_name(const std::string &f) { return f.size() > 44 ? "..." + f.substr(f.size() - 41) : f; }

}  // namespace

int cmd_replay(Args &args, bool explain) {
	const bool json = args.flag("json");
	auto impl = impl_option(args);
	const RulesRequest req_in = rules_request(args);
	const auto files = args.positional();
	if (files.size() != 1)
		throw UsageError("needs exactly one scenario file");
	auto parsed = load_scenario_file(files[0]);
	if (!parsed.scenario)
		throw UsageError(parsed.error.message);
	Scenario sc = std::move(*parsed.scenario);
	// Flags pin the scenario to the rules they name (so a printed replay
	// command runs exactly what failed); the file's expect lines speak for
	// its own rules only.  A plugin alone leaves the file's rules, with a
	// note when they are not the plugin's.
	std::string note;
	std::optional<RulesInForce> rules;
	// --policy alone on the model: on top of the file's own preset.
	RulesRequest req = req_in;
	if (!impl && req.rules.empty() && !req.policies.empty())
		req.rules = std::string(name(sc.cfg.preset));
	if (req.given()) {
		rules = resolve_rules(req, impl.get());
		if (!rules->matches(sc)) {
			sc.expect_violations.clear();
			sc.expect_bind_err.reset();
		}
		rules->pin(sc);
	} else if (impl) {
		try {
			const RulesInForce declared = resolve_rules(req, impl.get());
			if (!declared.matches(sc))
				note = fmt::format("note: the scenario's rules are not the plugin's ({}); {} runs it "
						   "under those\n",
						   declared.label(), declared.flags());
		} catch (const RulesError &) {
			note = "note: the plugin declares no rules; the scenario's own are used\n";
		}
	}
	RunOptions opts;
	opts.explain = explain;
	const RunReport r = run_scenario(sc, impl.get(), opts);
	const Verdict v = judge(sc, r);
	if (json) {
		auto j = report_json(r, sc);
		j["schema"] = explain ? "niovcheck-explain/1" : "niovcheck-replay/1";
		j["as_expected"] = v.as_expected;
		j["expectation_note"] = v.note;
		if (rules)
			j["rules_in_force"] = rules_json(*rules);
		std::puts(j.dump(2).c_str());
	} else {
		std::fputs(note.c_str(), stdout);
		std::fputs(report_text(r, sc, explain).c_str(), stdout);
		if (!r.clean())
			std::printf("%s\n", v.as_expected ? "as the scenario expects (its expect lines)"
							  : ("not as expected: " + v.note).c_str());
	}
	// The same exit code as `check` gives the file: 0 when the run came out
	// as the scenario expects (an expected violation included).
	return v.as_expected ? kExitClean : kExitViolation;
}

int cmd_check(Args &args) {
	const bool json = args.flag("json");
	const bool all_rules = args.flag("all-rules");
	auto impl = impl_option(args);
	const RulesRequest req = rules_request(args);
	const auto files = scenario_files(args.positional());
	args.done();
	if (files.empty())
		throw UsageError("no scenario files given");
	const auto rules = rules_for(req, impl.get());
	const CheckRun run = check_files(files, impl.get(), rules, all_rules);
	const std::string impl_path = impl ? std::filesystem::absolute(impl->path()).string() : "";
	if (json) {
		std::puts(check_json(run, impl_path, rules).dump(2).c_str());
		return run.unexpected ? kExitViolation : kExitClean;
	}
	std::printf("niovcheck check: %s, %s\n", impl ? ("plugin " + impl_path + " (" + impl->name() + ")").c_str() : "the model",
		    !rules ? "each scenario under its own rules"
		    : all_rules ? ("every scenario under its own rules (--all-rules; the plugin's: " + rules->label() + ")").c_str()
				: rules_text(*rules).c_str());
	std::printf("%-44s %-12s %-10s %-8s %-9s %s\n", "scenario", "rules", "bind", "niov", "result", "verdict");
	for (const auto &row : run.rows) {
		if (!row.skipped.empty())
			continue;
		const RunReport &r = row.report;
		const int err = RunReport::bind_err(r.model);
		const std::string niov = err ? "-" : fmt::format("{}K", (uint64_t{1} << r.model.bind.niov_shift) >> 10);
		const size_t nviol = r.model.violations.size() + (r.impl ? r.impl->violations.size() : 0);
		const std::string result = r.clean() ? "clean" : fmt::format("{} viol", nviol + r.differences.size());
		std::printf("%-44s %-12s %-10s %-8s %-9s %s\n", shown_name(row.file).c_str(),
			    std::string(name(row.scenario.cfg.preset)).c_str(), std::string(errno_name(err)).c_str(),
			    niov.c_str(), result.c_str(),
			    row.verdict.as_expected ? "ok" : ("UNEXPECTED: " + row.verdict.note).c_str());
	}
	std::printf("%zu scenarios, %u run, %u as expected, %u unexpected", files.size(), run.ran,
		    run.ran - run.unexpected, run.unexpected);
	if (run.skipped)
		std::printf("; %u skipped (their rules are not %s; --all-rules runs them under their own)", run.skipped,
			    rules->label().c_str());
	std::printf("\n");
	return run.unexpected ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
