// The verdict of `kernel series` as text (one row per patch, then each
// step's files, hunks and coverage, then the findings), JSON
// (niovcheck-series/1), KTAP v1 (a subtest per step, the engines nested in
// it) and JUnit XML (a testsuite per step).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "series_run.hpp"

namespace niov::cli {

void print_series_text(std::FILE *out, const SeriesVerdict &v);
nlohmann::json series_json(const SeriesVerdict &v);
void print_series_ktap(std::FILE *out, const SeriesVerdict &v);
std::string series_junit(const SeriesVerdict &v);

// How an engine of @s stands: "ok", "new" (it saw a finding this step
// brought in), "old" (only findings from before), "not run".
std::string engine_mark(const SeriesStep &s, const EngineResult &e);

}  // namespace niov::cli
