// What `prove` prints: one row per lemma (and per unsound check) with its
// verdict and Z3 time, the counterexamples, totals; the same as JSON; and
// the enumeration comparison.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "prove.hpp"
#include "runner.hpp"

namespace niov::smt {

struct LemmaRow {
	std::string group;  // the preset, or the unsound check's id
	const Lemma *lemma = nullptr;
	const UnsoundCheck *check = nullptr;
	std::vector<const JobResult *> results;
	unsigned proved = 0, known = 0, expected_cex = 0, failed = 0;
	double cpu_s = 0;  // Z3 CPU over the queries this row solved (shared ones count once)
	bool ok = true;
	std::string verdict;
};

struct Summary {
	std::string fingerprint;
	std::vector<std::string> rules;
	unsigned timeout_ms = 0, jobs = 0;
	std::vector<LemmaRow> rows;
	const std::vector<JobResult> *results = nullptr;
	unsigned configs = 0, queries = 0, shared = 0;
	double wall_s = 0, cpu_s = 0;
	bool ok = true;
	std::vector<std::string> promoted;
	std::string cli = "niovcheck";	// how replay commands name the CLI
	std::string cex_dir;		// this run's counterexample folder
	std::vector<NotApplicable> not_applicable;  // shown, neither proved nor failed
};

Summary summarize(const std::vector<JobResult> &results, const std::vector<const UnsoundCheck *> &checks,
		  double wall_s);
nlohmann::json summary_json(const Summary &s);
void print_summary(std::FILE *out, const Summary &s);

struct EnumRow {
	std::string lemma;
	std::string label;
	double z3_cpu_s = 0;
	uint64_t cases = 0, in_domain = 0, failures = 0;
	bool truncated = false;
	double enum_cpu_s = 0;
	unsigned input_bits = 0;
	double reduced_log2 = 0;
	bool z3_proved = false;
	std::string first_failure;
};

struct EnumReport {
	std::vector<EnumRow> rows;
	bool ok = true;	 // enumeration never contradicts a proof
};

// Each lemma of @results at its first configuration: Z3 vs brute force.
EnumReport run_enumeration(const ProveOptions &o, const std::vector<JobResult> &results);
nlohmann::json enumeration_json(const EnumReport &e);
void print_enumeration(std::FILE *out, const EnumReport &e);

}  // namespace niov::smt
