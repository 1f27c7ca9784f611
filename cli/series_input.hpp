// The patches of a series, in order, however they were given: patch files
// (`git format-patch` output), one mbox as `b4 am` writes it, or a range of
// commits of a git repository.  Bad input (an mbox without a patch, a range
// with a merge commit) is one line: UsageError.
#pragma once

#include <string>
#include <vector>

namespace niov::cli {

struct SeriesPatch {
	std::string name;     // the patch file, "FILE message N" of an mbox, or the commit's short hash
	std::string subject;  // without "[PATCH n/m]"
	std::string text;     // the mail or diff `patch -p1` reads
	std::string rev;      // --range: the commit (full hash)
};

struct SeriesSource {
	enum class Kind { files, mbox, range } kind = Kind::files;
	std::string base;      // the tree (--range: the repository), absolute
	std::string base_rev;  // --range: the commit the range starts from
	std::string what;      // "4 patch files", "mbox series.mbx", "range v1..v2 of REPO"
	std::vector<SeriesPatch> patches;
};

SeriesSource series_from_files(const std::string &base, const std::vector<std::string> &files);
// Messages start at "From " lines (as git mailsplit splits); those with a
// diff are kept in order, the cover letter (0/N) and replies (Re:) are not.
SeriesSource series_from_mbox(const std::string &base, const std::string &mbox);
// `git rev-list --reverse --topo-order A..B`; each commit's patch from
// `git diff-tree -p`.  @scratch: for git's output.
SeriesSource series_from_range(const std::string &repo, const std::string &range, const std::string &scratch);

// "net: devmem: x" from "Subject: [PATCH v2 3/4] net: devmem: x" (folded lines joined).
std::string mail_subject(const std::string &message);

}  // namespace niov::cli
