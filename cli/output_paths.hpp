// Where a command's reports go, checked before the work that fills them:
// a report that cannot be written is a run's work lost, and a lost report
// must be exit 2 with one line, never a silent success.
#pragma once

#include <string>

namespace niov::cli {

// Throws UsageError when stdout is closed.
void check_stdout();

// Throws UsageError ("@option PATH: cannot write: ...") unless a report can
// be written at @path: an existing file or device we may write, or a new
// file in a folder we can create files in (tried, not guessed from modes).
void check_output_path(const std::string &path, const std::string &option);

// Throws UsageError ("@what DIR: cannot write: No space left on device")
// unless 64 KiB can be written into @dir (and are removed again).
void check_writable(const std::string &dir, const std::string &what);

}  // namespace niov::cli
