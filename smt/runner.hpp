// Running lemma jobs: each (lemma, configuration) once, identical queries
// shared, the rest spread over worker threads (one Z3 context each), then
// every counterexample checked concretely and replayed as a scenario.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterexample.hpp"
#include "lemma.hpp"
#include "solve.hpp"

namespace niov::smt {

struct Job {
	const Lemma *lemma = nullptr;
	Point point;
	std::string group;	  // "tx-autosize", an unsound check's id, a matrix cell ...
	bool expect_cex = false;  // an unsound check: must come out sat
};

struct JobResult {
	Job job;
	std::string label;    // point_label of what the lemma reads
	Outcome out;
	bool shared = false;  // the same query as an earlier job: its outcome re-used
	CexReport cex;
	bool ok = false;      // what the run expects: proved, an expected or known counterexample
	std::string status;   // "proved", "counterexample (expected)", "unknown (timeout)" ...
};

struct RunOptions {
	unsigned jobs = 2;
	unsigned timeout_ms = 20000;
	std::string smt2_dir;  // export every query here when set
	std::string cex_dir;   // write every replayable counterexample here when set
	bool scenarios = true; // build and replay counterexample scenarios
};

std::vector<JobResult> run_jobs(const std::vector<Job> &jobs, const RunOptions &opts);

// A file-name-safe form of "lemma point".
std::string file_stem(const std::string &lemma, const std::string &label);

}  // namespace niov::smt
