#include "all_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace niov::cli {

namespace {

unsigned columns() {
	winsize ws{};
	if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

}  // namespace

ProgressMode progress_mode(bool quiet) {
	if (quiet)
		return ProgressMode::quiet;
	const char *term = std::getenv("TERM");
	if (::isatty(STDERR_FILENO) && !(term && std::strcmp(term, "dumb") == 0))
		return ProgressMode::live;
	return ProgressMode::lines;
}

std::string clock_text(double seconds) {
	const auto s = static_cast<unsigned long>(seconds < 0 ? 0 : seconds + 0.5);
	return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
			 : fmt::format("{}:{:02}", s / 60, s % 60);
}

void ProgressDisplay::clear() {
	if (drawn_)
		std::fputs("\r\033[K", stderr);
	drawn_ = false;
}

void ProgressDisplay::start(const std::string &engine, double estimate_s) {
	engine_ = engine;
	estimate_ = estimate_s;
	last_ = {};
	if (mode_ == ProgressMode::quiet)
		return;
	if (mode_ == ProgressMode::lines) {
		std::fprintf(stderr, "%s: %s ...\n", who_.c_str(), engine.c_str());
		return;
	}
	tick({});
}

void ProgressDisplay::tick(const ChildStatus &s) {
	if (mode_ != ProgressMode::live)
		return;
	const auto now = std::chrono::steady_clock::now();
	if (drawn_ && now - last_ < std::chrono::milliseconds(250))
		return;
	last_ = now;
	std::string line = fmt::format("{}: {}", who_, engine_);
	if (s.total)
		line += fmt::format(" {}/{}", s.done, s.total);
	line += fmt::format(" {}", clock_text(s.seconds));
	// The estimate: from the items done where they are counted, else the
	// budget's time.
	if (s.total && s.done)
		line += fmt::format(", ~{} left", clock_text(s.seconds * static_cast<double>(s.total - s.done) /
								static_cast<double>(s.done)));
	else if (estimate_ > 0)
		line += fmt::format(" of ~{}", clock_text(estimate_));
	// A file by its name: the line is for a glance.
	if (!s.at.empty())
		line += "  " + (s.at.front() == '/' ? s.at.substr(s.at.rfind('/') + 1) : s.at);
	const unsigned cols = columns();
	if (line.size() >= cols)
		line = line.substr(0, cols - 4) + "...";
	std::fprintf(stderr, "\r\033[K%s", line.c_str());
	std::fflush(stderr);
	drawn_ = true;
}

void ProgressDisplay::end(const EngineResult &r) {
	if (mode_ == ProgressMode::quiet)
		return;
	clear();
	std::fprintf(stderr, "%s: %s %s in %s%s\n", who_.c_str(), r.name.c_str(), std::string(status_name(r.status)).c_str(),
		     clock_text(r.seconds).c_str(), r.runs.empty() ? "" : fmt::format(" ({})", r.runs).c_str());
	std::fflush(stderr);
}

void ProgressDisplay::note(const std::string &line) {
	if (mode_ == ProgressMode::quiet)
		return;
	clear();
	std::fprintf(stderr, "%s: %s\n", who_.c_str(), line.c_str());
}

}  // namespace niov::cli
