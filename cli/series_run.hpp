// `niovcheck kernel series`: a patch series checked patch by patch.  Each
// step is the base with the patches so far, as kernel mode reads it: a
// scratch copy of the files it reads, patched (or read at the commit),
// probed, built and checked by `all`'s engines.  Findings are keyed by
// their root cause, so each step says what it brought in, what it fixed and
// what it carries; the first step that brings one in is the first bad
// patch.  The lines each patch adds are matched against what the engines
// executed (series_coverage.hpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "all_run.hpp"
#include "kernel_build.hpp"
#include "series_apply.hpp"
#include "series_coverage.hpp"
#include "series_input.hpp"
#include "series_tree.hpp"

namespace niov::cli {

// What kernel mode makes of a file a patch touches.
enum class FileRole {
	compiled,      // built into the plugin (devmem.c, the headers it reads, genalloc.c)
	fill,	       // net/core/datagram.c: the TX fill is extracted and built
	rules,	       // net/core/netdev-genl.c: read for the rule choices, not built
	unread,	       // a net/core header devmem.c does not include
	not_compiled,  // anything else (drivers, Documentation, selftests, uapi): not applied
};
const char *role_name(FileRole r);

struct SectionReport {
	std::string path;
	FileRole role = FileRole::not_compiled;
	bool applied = false;		// patched in the scratch copy (files mode)
	std::vector<HunkApplied> hunks;	// where each hunk went (files and mbox modes)
	std::size_t hunk_count = 0;
	unsigned added = 0, removed = 0;
};

struct SeriesStep {
	unsigned index = 0;		     // 0 = the base
	const SeriesPatch *patch = nullptr;  // null for the base
	std::vector<SectionReport> sections;
	TreeFiles files;
	std::string tree;		     // the step's files as a tree (kept, named by content)
	KernelBuild build;
	std::vector<std::string> changes;    // rule choices and tree features that changed: "KEY=VALUE", "+FLAG"
	int same_as = -1;		     // a step with the same compiled files: its verdict stands
	std::shared_ptr<AllRun> run;
	std::vector<std::string> fresh, fixed;			 // finding keys
	std::vector<std::pair<std::string, unsigned>> carried;	 // key, the step it came in (0: the base)
	std::map<std::string, std::vector<unsigned>> added;	 // compiled files: lines new or changed
	CoverageRun coverage;
	PatchCoverage patch_coverage;
	std::string coverage_warning;  // "" = none
	double seconds = 0;

	const Finding *finding(const std::string &key) const;
	std::string title() const;  // "base" or the patch's subject
};

struct SeriesOptions {
	bool coverage = true;
	std::string work;  // absolute; the steps' work folders go under it
};

struct SeriesVerdict {
	const SeriesSource *source = nullptr;
	AllRequest req;
	SeriesOptions opt;
	std::vector<SeriesStep> steps;
	int first_bad = -1;  // the step, -1 = none
	std::vector<std::string> warnings;
	double seconds = 0;
	int exit_code() const { return first_bad >= 0 ? 1 : 0; }
};

// Throws UsageError / kernel::KernelTreeError (one line) for bad input,
// before any engine runs: a hunk that does not apply, a step that does not
// build, a series that touches nothing kernel mode reads.
SeriesVerdict run_series(const SeriesSource &src, const AllRequest &req, const SeriesOptions &opt);

}  // namespace niov::cli
