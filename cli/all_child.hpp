// Running one piece of `niovcheck all` in a child process: a plugin that
// crashes, hangs, exits or prints takes down (or scribbles on) the child,
// never the verdict.  The child hands its result back as JSON through a
// pipe (a full disk cannot lose it); its stdout and stderr go to a log.
// What it is doing and which plugin call is running are on a page shared
// with the parent, so the parent can say what was running when it died and
// end a plugin call that does not return.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace niov::cli {

// What the child is doing, kept where the parent reads it after the child
// died, and in @context_file for kernel code that logs a WARN (it names
// what the run was at).
class Progress {
public:
	Progress(char *buf, size_t cap, std::string context_file = {}, std::atomic<uint64_t> *counts = nullptr)
		: buf_(buf), cap_(cap), context_file_(std::move(context_file)), counts_(counts) {}
	void at(const std::string &what) const;
	// How far it got: @done of @total items (the parent shows it).
	void count(uint64_t done, uint64_t total) const;

private:
	char *buf_;
	size_t cap_;
	std::string context_file_;
	std::atomic<uint64_t> *counts_;	 // done, total
};

// What the parent sees of a running child, a few times a second.
struct ChildStatus {
	std::string at;	     // the last Progress::at
	uint64_t done = 0;   // Progress::count (total 0: not known)
	uint64_t total = 0;
	double seconds = 0;  // since it started
};

struct ChildLimits {
	unsigned timeout_s = 600;  // the whole child
	double op_seconds = 0;	   // one plugin call that does not return (0: no limit)
};

struct ChildOutcome {
	bool completed = false;	 // the child returned a result
	nlohmann::json result;
	int signal = 0;		 // it was killed by this signal
	int exit_code = 0;	 // or exited without a result with this code
	bool timed_out = false;	 // it ran past the limit and was killed
	bool hung_call = false;	 // a plugin call did not return within op_seconds (killed)
	bool interrupted = false;  // stopped because we were told to stop (stop_signal())
	std::string error;	 // the child's own error (an exception of ours, not the plugin's)
	std::string op;		 // the plugin call running when it ended ("" = none)
	std::string fault_id;	 // what the code saw coming ("plugin.exit": "called exit(0) in fill")
	std::string fault;
	std::string progress;	 // the last thing it said it was doing
	std::string log;	 // its stdout + stderr (the first 64 KiB)
	double seconds = 0;
};

// Forks; the child runs @fn (in its own process group, so whatever it
// starts is killed with it) and exits.  @tag names the log under @work_dir.
// @watch, when given, is called in the parent while the child runs.
ChildOutcome run_in_child(const std::function<nlohmann::json(const Progress &)> &fn, const ChildLimits &lim,
			  const std::string &work_dir, const std::string &tag,
			  const std::function<void(const ChildStatus &)> &watch = {});

// From now on SIGINT, SIGTERM and SIGHUP (those not ignored when we were
// started) kill the running child's process group and are remembered:
// run_in_child returns at once (interrupted) and the caller asks
// stop_signal() whether to go on.
void catch_stop_signals();
// The signal that asked us to stop, 0 if none.
int stop_signal();

// "SIGSEGV".
std::string signal_name(int sig);

}  // namespace niov::cli
