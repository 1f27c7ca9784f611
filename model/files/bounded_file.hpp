// Reading a file the suite was pointed at: a regular file within a size
// limit, or one line saying why not.  A FIFO would block the open, a
// symlink to /dev/zero would read until memory runs out: neither is an
// input, so neither is ever read.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace niov {

// One line naming the file and what is wrong with it: bad input, exit 2.
struct FileError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "a FIFO", "a character device", ... for a st_mode that is not a regular file.
const char *file_kind(unsigned mode);

// The whole of @path.  Throws FileError for a file that is missing, not
// regular (after symlinks: "PATH: a FIFO, not a regular file"), unreadable
// or larger than @limit bytes ("PATH:1: input size exceeds 16777216 bytes
// (limit)").
std::string read_bounded(const std::string &path, uint64_t limit);

// The same, but nullopt when @path does not exist (ENOENT, ENOTDIR).
std::optional<std::string> read_bounded_if_exists(const std::string &path, uint64_t limit);

}  // namespace niov
