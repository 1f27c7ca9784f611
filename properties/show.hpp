// How RapidCheck prints a generated scenario in a counterexample: as the
// scenario text, which is also what the failure file holds.
#pragma once

#include <ostream>

#include "scenario.hpp"

namespace niov {

void showValue(const Scenario &sc, std::ostream &os);

}  // namespace niov
