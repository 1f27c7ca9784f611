// Running one piece of `niovcheck all` in a child process: a plugin that
// crashes, hangs, exits or prints takes down (or scribbles on) the child,
// never the verdict.  The child hands its result back as JSON through a
// file; its stdout and stderr go to a log.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace niov::cli {

// What the child is doing, written to a file as it goes, so the parent can
// say what was running when the child died.
class Progress {
public:
	explicit Progress(std::string path) : path_(std::move(path)) {}
	void at(const std::string &what) const;

private:
	std::string path_;
};

struct ChildOutcome {
	bool completed = false;	 // the child returned a result
	nlohmann::json result;
	int signal = 0;		 // it was killed by this signal
	int exit_code = 0;	 // or exited without a result with this code
	bool timed_out = false;	 // it ran past the limit and was killed
	std::string progress;	 // the last thing it said it was doing
	std::string log;	 // its stdout + stderr
	double seconds = 0;
};

// Forks; the child runs @fn (in its own process group, so whatever it
// starts is killed with it on a timeout) and exits.  @tag names the files
// under @work_dir.
ChildOutcome run_in_child(const std::function<nlohmann::json(const Progress &)> &fn, unsigned timeout_s,
			  const std::string &work_dir, const std::string &tag);

// "SIGSEGV".
std::string signal_name(int sig);

}  // namespace niov::cli
