// JSON and text renderings of a run report (the CLI's --json is a stable
// interface: CI and the scoreboard read it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report.hpp"

namespace niov::cli {

class JsonWriter;

std::string_view op_name(OpKind k);
// The report as JSON, streamed (memory: one frag at a time, whatever the
// run's size), and the same as a tree for callers that embed it.
void write_report_json(JsonWriter &w, const RunReport &r, const Scenario &sc);
// The bind's errno with the code's extack message next to it.
std::string bind_text(const Trace &t);
nlohmann::json report_json(const RunReport &r, const Scenario &sc);
// One difference with structured fields: step, op, field, skb/frag/offset
// and the two answers (frags as objects, numbers as numbers).
nlohmann::json difference_json(const Difference &d, const RunReport &r, const Scenario &sc);
// What step @step of @sc is: "bind" (step 0), "send", "ack", ...
std::string_view step_kind(const Scenario &sc, uint32_t step);
// The plugin's frag @frag of skb @skb at op @op, if it has one.
const Frag *plugin_frag(const Trace &t, size_t op, size_t skb, size_t frag);
// The person-readable replay / explain text (report_text.cpp): repeated
// frags, skbs and operations summarized unless @verbose.
std::string report_text(const RunReport &r, const Scenario &sc, bool explain, bool verbose);

}  // namespace niov::cli
