// The first half of `kernel series`: every step's files, patched, probed and
// built before any engine runs, so bad input (a hunk that does not apply, a
// step that does not build, rules the code does not state plainly) costs
// seconds, not a half-checked series.
#pragma once

#include <vector>

#include "series_run.hpp"

namespace niov::cli {

std::vector<SeriesStep> prepare_steps(const SeriesSource &src, const AllRequest &req, const SeriesOptions &opt);

}  // namespace niov::cli
