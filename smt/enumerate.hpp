// Exhaustive enumeration of a lemma with concrete words over its reduced
// domain (each input's Dom): the brute-force baseline `prove --enumerate`
// compares Z3 with.  It runs the same lemma body as the proof.
#pragma once

#include <cstdint>
#include <string>

#include "lemma.hpp"

namespace niov::smt {

struct EnumResult {
	uint64_t cases = 0;	  // input combinations evaluated
	uint64_t in_domain = 0;	  // ... satisfying the lemma's precondition
	uint64_t failures = 0;	  // ... violating its goal
	bool truncated = false;	  // stopped at the case limit
	double cpu_seconds = 0;
	unsigned input_bits = 0;  // width of the full input space Z3 covers
	double reduced_log2 = 0;  // log2 of the reduced domain's size
	std::string first_failure;
};

EnumResult enumerate(const Lemma &lemma, const Point &point, uint64_t max_cases);

}  // namespace niov::smt
