// JSON and text renderings of a run report (the CLI's --json is a stable
// interface: CI and the scoreboard read it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report.hpp"

namespace niov::cli {

nlohmann::json trace_json(const Trace &t);
nlohmann::json report_json(const RunReport &r, const Scenario &sc);
// The person-readable replay / explain text.
std::string report_text(const RunReport &r, const Scenario &sc, bool explain);

}  // namespace niov::cli
