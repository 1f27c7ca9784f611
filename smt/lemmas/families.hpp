// The lemma catalogue, one file per family (smt/lemmas/<family>.cpp).
#pragma once

#include <vector>

#include "../lemma.hpp"

namespace niov::smt::lemmas {

void add_sizing(std::vector<Lemma> &out);
void add_rx(std::vector<Lemma> &out);
void add_lookup(std::vector<Lemma> &out);
void add_clamp(std::vector<Lemma> &out);
void add_truesize(std::vector<Lemma> &out);
void add_zcrx(std::vector<Lemma> &out);

// The policy combinations that must give counterexamples (unsound.cpp).
std::vector<UnsoundCheck> unsound_checks();

}  // namespace niov::smt::lemmas
