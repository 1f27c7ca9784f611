// The files of a kernel tree that kernel mode reads, held in memory, one
// set per step of a series: taken from a folder or from a git revision,
// patched in a scratch folder, and laid out again as a tree of their own
// (named by their content, so the same step, however it was given, builds
// once).  The user's tree is only ever read.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace niov::cli {

using TreeFiles = std::map<std::string, std::string>;  // relative path -> bytes

// A file kernel mode may read: net/core/devmem.c, datagram.c, netdev-genl.c,
// any net/core/*.h (devmem.c includes some by quotes, and a patch may
// include one more), lib/genalloc.c and the real headers of
// kernel_build.cpp.  Sections of a patch for other files are not applied.
bool kernel_mode_reads(const std::string &path);

// Those files of the folder @tree.
TreeFiles tree_files_of_dir(const std::string &tree);

// Those files at @rev of the git repository @repo (git ls-tree, git show).
TreeFiles tree_files_at_rev(const std::string &repo, const std::string &rev, const std::string &scratch);

// A content hash of @files (paths and bytes).
std::string tree_hash(const TreeFiles &files);

// A folder under @root holding exactly @files, named by tree_hash(); made
// once (in a temporary folder, then renamed) and kept.
std::string materialize(const TreeFiles &files, const std::string &root);

// Writes @files under @dir (which is emptied first: a scratch folder).
void write_tree(const TreeFiles &files, const std::string &dir);

// The files kernel mode reads under @dir, read back.
TreeFiles read_tree(const std::string &dir);

// The lines of @after (1-based) that are new or changed against @before:
// what `diff -U0` marks '+'.
std::vector<unsigned> added_lines(const std::string &before, const std::string &after, const std::string &scratch);

}  // namespace niov::cli
