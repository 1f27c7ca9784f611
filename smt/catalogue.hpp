// The lemma catalogue: every lemma of smt/lemmas/ and the unsound checks.
#pragma once

#include <string_view>
#include <vector>

#include "lemma.hpp"

namespace niov::smt {

const std::vector<Lemma> &catalogue();
const Lemma *find_lemma(std::string_view id);
const std::vector<UnsoundCheck> &unsound_catalogue();

}  // namespace niov::smt
