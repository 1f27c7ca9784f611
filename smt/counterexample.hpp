// A Z3 counterexample as a scenario file: the lemma's scenario builder turns
// the model's values into a scenario, the model replays it, and the replay
// must show the lemma's invariant among its violations.
#pragma once

#include <string>
#include <vector>

#include "lemma.hpp"
#include "solve.hpp"

namespace niov::smt {

// Every counterexample file starts with this line prefix.
inline constexpr const char *kCexHeader = "# Z3 counterexample to";

struct CexReport {
	bool has_scenario = false;	 // the lemma has a scenario form
	std::string text;		 // the scenario file's text
	std::vector<std::string> violations;  // invariant ids the replay reported
	bool confirmed = false;		 // ... including the lemma's invariant
	bool known_finding = false;	 // model/check/findings.hpp explains it (a device limit)
	std::string file;		 // where it was written, if it was
};

// @header: comment lines (without '#') put at the top of the file.
// @expected: the file expects what its replay shows (expect lines), so
// `check` passes on it: a counterexample the run expected, or one kept as a
// regression.  A finding's file has none, so its replay exits 1.
CexReport counterexample_report(const Lemma &lemma, const Point &point, const Assignment &a,
				const std::vector<std::string> &header, bool expected = true);

// Write r.text to @dir/@base.scn; sets r.file.  Throws std::runtime_error.
void write_counterexample(CexReport &r, const std::string &dir, const std::string &base);

}  // namespace niov::smt
