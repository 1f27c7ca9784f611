// What `all` (and so `kernel check`, `kernel series`) says on stderr while
// its engines run.  On a terminal: one line per running engine, rewritten
// in place (what it is at, items done / total where known, elapsed and an
// estimate from the budget), then its outcome.  Elsewhere (a log, a pipe):
// plain lines, one when an engine starts and one when it ends.  --quiet:
// nothing.
#pragma once

#include <chrono>
#include <string>

#include "all_child.hpp"
#include "all_types.hpp"

namespace niov::cli {

enum class ProgressMode { quiet, lines, live };

// live when stderr is a terminal (and TERM is not "dumb"), else lines;
// quiet when asked.
ProgressMode progress_mode(bool quiet);

class ProgressDisplay {
public:
	explicit ProgressDisplay(ProgressMode mode, std::string who = "niovcheck all")
		: mode_(mode), who_(std::move(who)) {}
	// An engine starts; @estimate_s is what its budget gives it (0: not known).
	void start(const std::string &engine, double estimate_s);
	// What its child says (live mode only; at most a few times a second).
	void tick(const ChildStatus &s);
	// It ended.
	void end(const EngineResult &r);
	// A line of its own ("naming the root causes ...").
	void note(const std::string &line);

private:
	ProgressMode mode_;
	std::string who_;
	std::string engine_;
	double estimate_ = 0;
	bool drawn_ = false;
	std::chrono::steady_clock::time_point last_{};
	void clear();
};

// "0:41", "1:02:03".
std::string clock_text(double seconds);

}  // namespace niov::cli
