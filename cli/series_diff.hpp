// A patch as the files it touches: the sections of a unified diff (git's
// or a plain one), each with its hunks, split the way `patch -p1` reads
// them, so each file's part can be applied, or listed, on its own.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace niov::cli {

struct DiffError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

struct DiffHunk {
	std::string header;  // "@@ -270,15 +270,17 @@ void net_devmem_put_net_iov(...)"
	unsigned old_start = 0, old_count = 0, new_start = 0, new_count = 0;
};

struct DiffSection {
	std::string path;      // the file after the patch, -p1 ("net/core/devmem.c")
	std::string old_path;  // before it ("" for a new file); differs on a rename
	bool created = false, deleted = false, binary = false;
	std::vector<DiffHunk> hunks;
	unsigned added = 0, removed = 0;
	std::string text;  // this file's part alone, as `patch -p1` takes it
};

// Every file section of @patch in order; the mail around them (headers,
// message, diffstat, signature) is skipped.  Throws DiffError (one line)
// when a hunk's lines do not add up to its header's counts.
std::vector<DiffSection> diff_sections(const std::string &patch);

// "net/core/devmem.c" from "a/net/core/devmem.c" (-p1), "" for /dev/null;
// a timestamp after a tab is dropped.
std::string strip_one(const std::string &name);

}  // namespace niov::cli
