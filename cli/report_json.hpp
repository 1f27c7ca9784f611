// JSON and text renderings of a run report (the CLI's --json is a stable
// interface: CI and the scoreboard read it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report.hpp"

namespace niov::cli {

nlohmann::json trace_json(const Trace &t);
nlohmann::json report_json(const RunReport &r, const Scenario &sc);
// One difference with structured fields: step, op, field, skb/frag/offset
// and the two answers (frags as objects, numbers as numbers).
nlohmann::json difference_json(const Difference &d, const RunReport &r, const Scenario &sc);
// What step @step of @sc is: "bind" (step 0), "send", "ack", ...
std::string_view step_kind(const Scenario &sc, uint32_t step);
// The person-readable replay / explain text.
std::string report_text(const RunReport &r, const Scenario &sc, bool explain);

}  // namespace niov::cli
