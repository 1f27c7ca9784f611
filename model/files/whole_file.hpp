// Writing a file so that it is there whole or not at all.  A scenario file
// a replay command names, a report a CI job reads: half of one is worse
// than none, so a full disk must not leave an empty file that looks written.
#pragma once

#include <string>
#include <string_view>

namespace niov {

// Writes @text to @path through a temporary file beside it, renamed over
// @path only once every byte was written, flushed and closed.  A @path that
// exists and is not a regular file (/dev/stdout, a FIFO) is written in
// place, every write checked.  Returns "" on success, else why not
// ("No space left on device"); on failure nothing is left behind but what
// @path was before.
std::string write_whole_file(const std::string &path, std::string_view text);

}  // namespace niov
