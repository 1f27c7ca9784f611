// `check` as a function: scenario files through the model and a plugin under
// the rules in force, each judged against its own `expect` lines.  Shared by
// `niovcheck check` and the replay engine of `niovcheck all`.
#pragma once

#include <nlohmann/json.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "plugin.hpp"
#include "report.hpp"
#include "rules_in_force.hpp"
#include "worker.hpp"

namespace niov::cli {

// Did the run come out as the scenario says it should?
struct Verdict {
	bool as_expected = true;
	std::string note;
};
Verdict judge(const Scenario &sc, const RunReport &r);

struct CheckRow {
	std::string file;
	std::string skipped;  // why it did not run ("" = it ran)
	Scenario scenario;
	RunReport report;
	Verdict verdict;
};

struct CheckRun {
	std::vector<CheckRow> rows;
	unsigned ran = 0, skipped = 0, unexpected = 0;
};

// @rules set: only the scenarios of those rules run (the others are rows
// with .skipped), unless @all_rules, which runs every scenario under its own
// rules.  @rules unset: every scenario under its own rules.  @same_preset:
// scenarios of the rules' preset with other policies run too, under the
// rules in force, expecting only what their inputs explain (a kernel tree
// whose code makes some of a preset's choices its own way).
CheckRun check_files(const std::vector<std::string> &files, Impl *impl, const std::optional<RulesInForce> &rules,
		     bool all_rules, bool same_preset = false);

// The .scn files under @paths (folders recursively, in sorted order).
// Throws UsageError for a path that does not exist.
std::vector<std::string> scenario_files(const std::vector<std::string> &paths);

// The --impl plugin, loaded after a probe in a worker; nullptr without --impl.
std::unique_ptr<PluginImpl> impl_option(Args &args, const worker::Limits &lim);

// The plugin's memory across bind/unbind cycles of the scenario's bind,
// measured in the worker after the run (findings as JSON; @flags go into the
// replay command).
nlohmann::json leak_findings(PluginImpl *impl, const RunReport &r, const std::string &file, const std::string &flags);

// Runs one scenario in a worker; @job makes the payload from the run and the
// leak findings, and may worker::stream() a large part of it to @pieces.
using ScenarioPayload = std::function<nlohmann::json(const RunReport &, nlohmann::json findings)>;
worker::Outcome run_isolated(const Scenario &sc, const std::string &file, PluginImpl *impl, const RunOptions &opts,
			     const worker::Limits &lim, const std::string &flags, const ScenarioPayload &job,
			     const worker::PartialFn &pieces = {});

}  // namespace niov::cli
