// Which of the lines a patch adds the engines executed: the step's tree
// built once more with gcov counters (kernel_build --coverage), the engines
// that run the plugin's code in cases of their own (replay, props, faults)
// run against it in a child niovcheck that has flush_at_exit.c preloaded
// (the workers end with _exit, which gcov does not see), then gcov's
// counts of the tree's files, intersected with the patch's lines.
//
// The fuzz engine is left out: the libFuzzer targets carry clang's ASan
// runtime, which refuses a preloaded library ahead of it, and their inputs
// are the shipped seeds the replay and props engines cover already.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "all.hpp"

namespace niov::cli {

// Relative path in the tree -> line -> times executed (every line gcov
// counts as code; a line it does not list holds no code).
using LineCounts = std::map<std::string, std::map<unsigned, uint64_t>>;

struct CoverageRun {
	bool ran = false;
	std::string note;		   // why not, when not
	std::vector<std::string> engines;  // the engines that ran on the coverage build
	std::string plugin;		   // the coverage build
	LineCounts lines;
	double seconds = 0;
};

// The engines of @req that coverage runs (replay, props, faults among them).
std::vector<std::string> coverage_engines(const AllRequest &req);

// Builds @tree with counters and runs @engines at @req's budget (@cases per
// property) under the rules @rule_flags ("" = the plugin's, read off the
// code); its files go to @work.
CoverageRun measure_coverage(const std::string &tree, const AllRequest &req, const std::vector<std::string> &engines,
			     uint64_t cases, const std::string &rule_flags, const std::string &work,
			     const std::string &niovcheck);

struct PatchCoverage {
	unsigned added = 0;	 // lines the patch adds or changes in the files the plugin compiles
	unsigned code = 0;	 // of them, lines that hold code
	unsigned exercised = 0;	 // of those, lines an engine executed
	std::vector<std::string> unexercised;  // "net/core/devmem.c:253"
};

// @added: per file, the lines new or changed in the step.
PatchCoverage patch_coverage(const LineCounts &counts, const std::map<std::string, std::vector<unsigned>> &added);

}  // namespace niov::cli
