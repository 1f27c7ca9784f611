// `niovcheck all` as two halves: running the engines into a verdict, and
// printing it.  Commands that compare verdicts (`kernel series` keys each
// step's findings against the step before) take the structure, never the
// printed text.
#pragma once

#include <cstdio>
#include <memory>

#include "all.hpp"
#include "all_report.hpp"
#include "all_types.hpp"

namespace niov::cli {

// One run: its context and the verdict that points into it (so it stays put).
struct AllRun {
	EngineInput ctx;
	AllVerdict verdict;

	AllRun() = default;
	AllRun(const AllRun &) = delete;
	AllRun &operator=(const AllRun &) = delete;
};

// Every engine of @req, grouped into a verdict; prints progress to stderr
// only.  Throws as run_all() does for bad input.
std::unique_ptr<AllRun> check_all(const AllRequest &req);

// Prints @run's verdict to @out as its request asks (text, JSON or TAP),
// writes its JUnit XML when asked; returns the exit code.
int report_all(const AllRun &run, std::FILE *out);

}  // namespace niov::cli
