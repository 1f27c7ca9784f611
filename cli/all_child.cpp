#include "all_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>

#include <fmt/format.h>

#include "breadcrumb.hpp"
#include "plugin_fault.hpp"

namespace niov::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kLogKept = 64 * 1024;
constexpr int kSliceMs = 50;  // how often the parent looks at the plugin call running

// Shared with the child: where the plugin is, what the engine is doing.
struct Page {
	Breadcrumb crumb;
	char progress[4096];
	std::atomic<uint64_t> counts[2];  // Progress::count: done, total
};

// The result pipe's first byte: what follows.
constexpr char kResult = 'R', kFault = 'F', kError = 'E';

std::atomic<int> g_stop{0};
std::atomic<pid_t> g_group{0};

void on_stop(int sig) {
	g_stop.store(sig);
	if (const pid_t g = g_group.load(); g > 0)
		::kill(-g, SIGKILL);
}

std::string read_log(const std::string &path) {
	std::string out;
	const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return out;
	char buf[8192];
	for (ssize_t n; out.size() < kLogKept && (n = ::read(fd, buf, sizeof buf)) > 0;)
		out.append(buf, static_cast<size_t>(std::min<size_t>(static_cast<size_t>(n), kLogKept - out.size())));
	::close(fd);
	return out;
}

void write_all(int fd, const std::string &s) {
	for (size_t at = 0; at < s.size();) {
		const ssize_t n = ::write(fd, s.data() + at, s.size() - at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		at += static_cast<size_t>(n);
	}
}

[[noreturn]] void child(const std::function<nlohmann::json(const Progress &)> &fn, Page *page, int result_fd,
			const std::string &log_path, pid_t parent) {
	::setpgid(0, 0);
	// Orphaned (the parent was killed outright): end with it.
	::prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (::getppid() != parent)
		::_exit(125);
	for (int sig : {SIGINT, SIGTERM, SIGHUP})
		::signal(sig, SIG_DFL);
	use_breadcrumb(&page->crumb);
	const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log >= 0) {
		::dup2(log, STDOUT_FILENO);
		::dup2(log, STDERR_FILENO);
		::close(log);
	}
	// A kernel WARN logged by the code says what the child was at.
	const std::string context = log_path + ".context";
	::setenv("NIOV_KERNEL_WARN_CONTEXT", context.c_str(), 1);
	std::string msg;
	try {
		msg = kResult + fn(Progress(page->progress, sizeof page->progress, context, page->counts)).dump();
	} catch (const PluginFault &f) {  // the plugin broke the ABI's contract: its finding
		msg = kFault + f.id + '\n' + f.what();
	} catch (const std::exception &e) {  // ours
		msg = kError + std::string(e.what());
	}
	std::fflush(nullptr);
	write_all(result_fd, msg);
	::close(result_fd);
	::_exit(0);
}

// The parent's side: the result pipe read as it comes, the child reaped,
// the clock and the running plugin call watched.
struct Watch {
	const ChildLimits &lim;
	Page &page;
	const std::function<void(const ChildStatus &)> &watch;
	pid_t pid;
	int result_fd;
	std::string data;
	int status = 0;
	bool exited = false;

	void drain() {
		char buf[65536];
		for (;;) {
			const ssize_t n = ::read(result_fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return;
			data.append(buf, static_cast<size_t>(n));
		}
	}

	void kill_group() {
		::kill(-pid, SIGKILL);
		::kill(pid, SIGKILL);
	}

	// Until the child is gone; what we imposed on it, if anything.
	void loop(ChildOutcome &o) {
		// The syscall, not glibc 2.36's wrapper: its header lacks extern "C".
		const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
		const auto start = Clock::now(), deadline = start + std::chrono::seconds(lim.timeout_s);
		uint64_t last_progress = page.crumb.progress.load();
		auto last_change = start;
		bool pipe_open = true;
		while (!exited) {
			pollfd fds[2] = {{pipe_open ? result_fd : -1, POLLIN, 0}, {pidfd, POLLIN, 0}};
			::poll(fds, 2, kSliceMs);
			if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
				const size_t before = data.size();
				drain();
				pipe_open = data.size() != before || !(fds[0].revents & POLLHUP);
			}
			if (::waitpid(pid, &status, WNOHANG) == pid) {
				exited = true;
				break;
			}
			const auto now = Clock::now();
			if (watch) {
				ChildStatus st;
				st.at = std::string(page.progress, strnlen(page.progress, sizeof page.progress));
				st.done = page.counts[0].load();
				st.total = page.counts[1].load();
				st.seconds = std::chrono::duration<double>(now - start).count();
				watch(st);
			}
			if (const uint64_t p = page.crumb.progress.load(); p != last_progress) {
				last_progress = p;
				last_change = now;
			}
			const bool in_op = page.crumb.op.load() != static_cast<uint32_t>(PluginOp::none);
			if (g_stop.load()) {
				o.interrupted = true;
			} else if (lim.op_seconds > 0 && in_op &&
				   std::chrono::duration<double>(now - last_change).count() > lim.op_seconds) {
				o.hung_call = true;
			} else if (now >= deadline) {
				o.timed_out = true;
			} else {
				continue;
			}
			kill_group();
			while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
			}
			exited = true;
		}
		if (pidfd >= 0)
			::close(pidfd);
		drain();
	}
};

}  // namespace

void Progress::count(uint64_t done, uint64_t total) const {
	if (!counts_)
		return;
	counts_[1].store(total);
	counts_[0].store(done);
}

void Progress::at(const std::string &what) const {
	crumb_copy(buf_, cap_, what);
	if (context_file_.empty())
		return;
	// Rewritten whole, so its one line is always the latest.
	const int fd = ::open(context_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	write_all(fd, what + '\n');
	::close(fd);
}

std::string signal_name(int sig) {
	const char *abbrev = sigabbrev_np(sig);
	return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

void catch_stop_signals() {
	struct sigaction sa {};
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
		// Ignored when we started (nohup, a shell's background job): the
		// caller meant it, as every Unix tool takes it.
		struct sigaction old {};
		if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		::sigaction(sig, &sa, nullptr);
	}
}

int stop_signal() { return g_stop.load(); }

ChildOutcome run_in_child(const std::function<nlohmann::json(const Progress &)> &fn, const ChildLimits &lim,
			  const std::string &work_dir, const std::string &tag,
			  const std::function<void(const ChildStatus &)> &watch) {
	namespace fs = std::filesystem;
	ChildOutcome o;
	if (g_stop.load()) {
		o.interrupted = true;
		return o;
	}
	std::error_code ec;
	fs::create_directories(work_dir, ec);
	const std::string log_path = (fs::path(work_dir) / (tag + ".log")).string();
	void *mem = ::mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
	auto *page = new (mem) Page{};
	int fds[2];
	if (::pipe2(fds, O_CLOEXEC) != 0) {
		::munmap(mem, sizeof(Page));
		throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
	}
	std::fflush(stdout);
	std::fflush(stderr);
	const auto start = Clock::now();
	const pid_t parent = ::getpid();
	const pid_t pid = ::fork();
	if (pid < 0) {
		::close(fds[0]);
		::close(fds[1]);
		::munmap(mem, sizeof(Page));
		throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
	}
	if (pid == 0) {
		::close(fds[0]);
		child(fn, page, fds[1], log_path, parent);
	}
	::close(fds[1]);
	// Both sides set the group: the signal handler may need it before the
	// child ran its first instruction.
	::setpgid(pid, pid);
	g_group.store(pid);
	::fcntl(fds[0], F_SETFL, O_NONBLOCK);
	Watch w{lim, *page, watch, pid, fds[0], {}};
	w.loop(o);
	g_group.store(0);
	// Whatever the child started is ended with it.
	::kill(-pid, SIGKILL);
	::close(fds[0]);
	o.seconds = std::chrono::duration<double>(Clock::now() - start).count();
	o.log = read_log(log_path);
	o.progress = page->progress;
	const Breadcrumb &b = page->crumb;
	if (const auto op = static_cast<PluginOp>(b.op.load()); op != PluginOp::none)
		o.op = std::string(op_name(op));
	o.fault_id = b.fault_id;
	o.fault = b.fault;
	::munmap(mem, sizeof(Page));
	if (o.timed_out || o.hung_call || o.interrupted)
		return o;
	if (WIFSIGNALED(w.status))
		o.signal = WTERMSIG(w.status);
	if (WIFEXITED(w.status))
		o.exit_code = WEXITSTATUS(w.status);
	if (o.signal || o.exit_code || w.data.empty())
		return o;
	if (w.data[0] == kError) {
		o.error = w.data.substr(1);
		return o;
	}
	if (w.data[0] == kFault) {
		const size_t nl = w.data.find('\n');
		o.fault_id = w.data.substr(1, nl - 1);
		o.fault = nl == std::string::npos ? "" : w.data.substr(nl + 1);
		return o;
	}
	try {
		o.result = nlohmann::json::parse(w.data.begin() + 1, w.data.end());
		o.completed = true;
	} catch (const nlohmann::json::exception &) {
		o.completed = false;
	}
	return o;
}

}  // namespace niov::cli
