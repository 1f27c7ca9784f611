// An ASan-built plugin (`niovcheck kernel build --asan`) needs the ASan
// runtime loaded before anything else, which a plain niovcheck is not.  The
// command is then run again in a child with the runtime preloaded; the
// parent passes the child's output through and turns a sanitizer report
// into a finding: what fired, the tree's function and file:line, the
// command and scenario that triggered it, and the command replaying it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace niov::cli {

// The plugin that `--impl PATH` (or `--impl=PATH`) names in @argv, if any.
std::optional<std::string> impl_argument(int argc, char **argv);

// Whether this process has a sanitizer runtime of its own.
bool process_has_asan();

// If @argv names an ASan-built plugin and this process has no ASan runtime,
// run the same command under it and return the exit status to use (1 with a
// finding when the sanitizer fired); nullopt when nothing needs doing (or in
// the child itself).
std::optional<int> rerun_under_sanitizer_if_needed(int argc, char **argv);

// Run `niovcheck @args` (no program name) with the ASan runtime preloaded,
// output passed through, a sanitizer report made a finding; its exit status.
int run_with_sanitizer(const std::vector<std::string> &args);

}  // namespace niov::cli
