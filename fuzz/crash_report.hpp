// What a fuzz target prints when a plugin kills it: the harness' failure
// line ("niovcheck-fuzz <target>: <id> (<plugin>, <op>, step N): <what> |
// replay: ...") from the breadcrumb, before the previous handler (libFuzzer's,
// which saves the input, or the default) ends the process.  And, for the
// plain replay drivers that have no -timeout, a per-input watchdog.
#pragma once

#include <string>

namespace niov::fuzz {

// Install the handlers (again after an uninstall); @target names the
// target, @replay is the replay hint of the running input (kept in a fixed
// buffer: the handler allocates nothing).
void crash_report_install(const std::string &target);
// Put the previous handlers back: after the plugin's load, so libFuzzer,
// which leaves a signal alone when it finds a handler there, installs its
// own (the one that writes crash-*); the first input installs ours on top.
void crash_report_uninstall();
void crash_report_replay(const std::string &replay);
// The line was printed already (the exit guard's reporter): say it once.
void crash_report_done();

// The replay drivers: a plugin call that has not returned after @seconds
// (NIOV_OP_TIMEOUT, default 10) ends the run as plugin.hang.
void watchdog_arm();
void watchdog_disarm();

}  // namespace niov::fuzz
