#include "series_exec.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace niov::cli {

namespace {

std::string read_whole(const std::string &path) {
	std::ifstream in(path, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

void redirect(const std::string &path, int fd, int flags) {
	const int f = ::open(path.c_str(), flags, 0644);
	if (f >= 0) {
		::dup2(f, fd);
		::close(f);
	}
}

}  // namespace

ExecResult exec_capture(const std::vector<std::string> &argv, const std::string &scratch, const ExecOptions &opt) {
	static std::atomic<unsigned> serial{0};
	const std::string base = scratch + "/exec-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
	const std::string out = opt.stdout_file.empty() ? base + ".out" : opt.stdout_file, err = base + ".err";
	std::fflush(nullptr);
	const pid_t pid = ::fork();
	if (pid < 0)
		return {};
	if (pid == 0) {
		redirect(opt.stdin_file.empty() ? "/dev/null" : opt.stdin_file, STDIN_FILENO, O_RDONLY);
		redirect(out, STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
		redirect(err, STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
		if (!opt.cwd.empty() && ::chdir(opt.cwd.c_str()) != 0)
			::_exit(126);
		::setenv("LC_ALL", "C", 1);  // the messages parsed here are the C locale's
		for (const auto &[k, v] : opt.env)
			::setenv(k.c_str(), v.c_str(), 1);
		std::vector<char *> a;
		for (const auto &s : argv)
			a.push_back(const_cast<char *>(s.c_str()));
		a.push_back(nullptr);
		::execvp(a[0], a.data());
		::_exit(127);
	}
	int st = 0;
	while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
	}
	ExecResult r;
	r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (opt.stdout_file.empty()) {
		r.out = read_whole(out);
		std::filesystem::remove(out);
	}
	r.err = read_whole(err);
	std::filesystem::remove(err);
	return r;
}

}  // namespace niov::cli
