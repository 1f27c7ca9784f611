// Applying one file's part of a patch to a scratch copy, as `patch -p1`
// does (offsets and fuzz allowed), and saying where each hunk went.
#pragma once

#include <string>
#include <vector>

#include "series_diff.hpp"

namespace niov::cli {

struct HunkApplied {
	std::string header;  // the hunk's "@@ ... @@" line
	unsigned at = 0;     // the line of the patched file it went to
	long offset = 0;     // lines away from where the patch said
	unsigned fuzz = 0;   // context lines patch had to ignore
};

// Applies @s under @dir with GNU patch.  A hunk that does not apply throws
// UsageError, one line: "@patch_name: FILE: hunk #N (@@ ... @@) does not apply".
// @scratch holds the section's text and patch's output.
std::vector<HunkApplied> apply_section(const DiffSection &s, const std::string &dir, const std::string &patch_name,
				       const std::string &scratch);

}  // namespace niov::cli
