// `check` as a function: scenario files through the model and a plugin under
// the rules in force, each judged against its own `expect` lines.  Shared by
// `niovcheck check` and the replay engine of `niovcheck all`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report.hpp"
#include "rules_in_force.hpp"

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
// rules.  @rules unset: every scenario under its own rules.
CheckRun check_files(const std::vector<std::string> &files, Impl *impl, const std::optional<RulesInForce> &rules,
		     bool all_rules);

// The .scn files under @paths (folders recursively, in sorted order).
// Throws UsageError for a path that does not exist.
std::vector<std::string> scenario_files(const std::vector<std::string> &paths);

// Schema niovcheck-check/1.
nlohmann::json check_json(const CheckRun &run, const std::string &impl, const std::optional<RulesInForce> &rules);

}  // namespace niov::cli
