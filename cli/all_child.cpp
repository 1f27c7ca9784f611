#include "all_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fmt/format.h>

namespace niov::cli {

namespace {

std::string read_all(const std::string &path) {
	std::ifstream in(path, std::ios::binary);
	return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string last_line(const std::string &text) {
	size_t end = text.find_last_not_of('\n');
	if (end == std::string::npos)
		return "";
	const size_t start = text.rfind('\n', end);
	return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// Reaps @pid into @status if it exits before @deadline.  Most children
// live a few milliseconds (the cause of one case, one replay): a pidfd
// wakes the parent when the child ends, where polling waitpid every 20 ms
// made each of them cost 20 ms, most of a broken plugin's `all` run.
// Without pidfds (kernels before 5.3) the poll starts at 1 ms and backs off.
bool wait_until(pid_t pid, int &status, std::chrono::steady_clock::time_point deadline) {
	// The syscall, not glibc 2.36's wrapper: its header lacks extern "C".
	const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
	auto nap = std::chrono::milliseconds(1);
	bool exited = false;
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			break;
		}
		const auto now = std::chrono::steady_clock::now();
		if (now >= deadline)
			break;
		if (pidfd >= 0) {
			const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
			pollfd p{pidfd, POLLIN, 0};
			poll(&p, 1, static_cast<int>(std::min<long long>(left, INT_MAX)));
		} else {
			std::this_thread::sleep_for(nap);
			nap = std::min(2 * nap, std::chrono::milliseconds(20));
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return exited;
}

}  // namespace

void Progress::at(const std::string &what) const {
	std::ofstream f(path_, std::ios::app);
	f << what << '\n';
}

std::string signal_name(int sig) {
	const char *abbrev = sigabbrev_np(sig);
	return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

ChildOutcome run_in_child(const std::function<nlohmann::json(const Progress &)> &fn, unsigned timeout_s,
			  const std::string &work_dir, const std::string &tag) {
	namespace fs = std::filesystem;
	std::error_code ec;
	fs::create_directories(work_dir, ec);
	const std::string base = (fs::path(work_dir) / tag).string();
	const std::string result_path = base + ".result.json", progress_path = base + ".progress",
			  log_path = base + ".log";
	for (const auto &p : {result_path, progress_path, log_path})
		fs::remove(p, ec);
	std::fflush(stdout);
	std::fflush(stderr);
	const auto start = std::chrono::steady_clock::now();
	const pid_t pid = fork();
	if (pid < 0)
		throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);
		// A kernel WARN logged by the code says what the child was at.
		setenv("NIOV_KERNEL_WARN_CONTEXT", progress_path.c_str(), 1);
		const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (log >= 0) {
			dup2(log, STDOUT_FILENO);
			dup2(log, STDERR_FILENO);
			close(log);
		}
		int code = 0;
		try {
			const nlohmann::json j = fn(Progress(progress_path));
			std::ofstream out(result_path + ".tmp", std::ios::trunc);
			out << j.dump();
			out.close();
			if (!out || std::rename((result_path + ".tmp").c_str(), result_path.c_str()) != 0)
				code = 3;
		} catch (const std::exception &e) {
			std::fprintf(stderr, "niovcheck all: %s\n", e.what());
			code = 4;
		}
		std::fflush(nullptr);
		_exit(code);
	}
	ChildOutcome o;
	int status = 0;
	if (!wait_until(pid, status, start + std::chrono::seconds(timeout_s))) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		o.timed_out = true;
	}
	// Whatever the child started is ended with it.
	kill(-pid, SIGKILL);
	o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	o.log = read_all(log_path);
	o.progress = last_line(read_all(progress_path));
	if (!o.timed_out && WIFSIGNALED(status))
		o.signal = WTERMSIG(status);
	if (!o.timed_out && WIFEXITED(status))
		o.exit_code = WEXITSTATUS(status);
	if (!o.timed_out && !o.signal && o.exit_code == 0 && fs::exists(result_path, ec)) {
		try {
			o.result = nlohmann::json::parse(read_all(result_path));
			o.completed = true;
		} catch (const nlohmann::json::exception &) {
			o.completed = false;
		}
	}
	return o;
}

}  // namespace niov::cli
