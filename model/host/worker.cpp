#include "worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "breadcrumb.hpp"
#include "limits.hpp"
#include "plugin_fault.hpp"

// Coverage runtimes write their data at exit; the child leaves by _exit.
extern "C" void __gcov_dump(void) __attribute__((weak));
extern "C" int __llvm_profile_write_file(void) __attribute__((weak));

namespace niov::worker {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kStdoutKept = 512;	    // bytes of a plugin's stdout quoted
constexpr size_t kStderrKept = 64 * 1024;  // bytes of the child's stderr passed on
constexpr int kPollMs = 20;

// A batch item's result among the partials, as kChunkMark marks a piece.
constexpr char kItemMark = 'I';

// The result pipe carries frames: a kind byte, a 32-bit length, the bytes.
constexpr char kPartial = 'P', kResult = 'R', kFault = 'F', kError = 'E', kLimit = 'L';

int g_result_fd = -1;			  // the child's end of the result pipe
std::vector<std::string> g_in_process;	  // emit() outside a worker

std::string frame(char kind, const std::string &body) {
	const auto n = static_cast<uint32_t>(body.size());
	std::string f(1, kind);
	f.append(reinterpret_cast<const char *>(&n), sizeof(n));
	return f + body;
}

bool env_seconds(const char *name, double &out, std::string &error) {
	const char *v = std::getenv(name);
	if (!v || !*v)
		return true;
	char *end = nullptr;
	errno = 0;
	const double d = std::strtod(v, &end);
	if (errno || end == v || *end || d < 0 || d > 1e6) {
		error = fmt::format("${}: '{}' is not a number of seconds (0 to 1000000)", name, v);
		return false;
	}
	out = d;
	return true;
}

void write_all(int fd, const char *p, size_t n) {
	while (n) {
		const ssize_t w = ::write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= static_cast<size_t>(w);
	}
}

// What the job says, in the child: its result, its PluginFault, its error.
std::string run_job(const Job &job) {
	try {
		return kResult + job();
	} catch (const LimitError &e) {  // the input asked past a documented limit
		return kLimit + std::string(e.what());
	} catch (const PluginFault &f) {
		return std::string(1, kFault) + f.id + '\n' + f.op + '\n' + f.what();
	} catch (const std::exception &e) {
		return std::string(1, kError) + e.what();
	} catch (...) {
		return std::string(1, kError) + "an exception that is not a std::exception";
	}
}

void take_message(Outcome &o, const std::string &msg) {
	if (msg.empty())
		return;
	const std::string body = msg.substr(1);
	if (msg[0] == kPartial) {
		o.partial.push_back(body);
	} else if (msg[0] == kResult) {
		o.end = End::result;
		o.result = body;
	} else if (msg[0] == kFault) {
		o.end = End::fault;
		const size_t a = body.find('\n'), b = body.find('\n', a + 1);
		o.fault_id = body.substr(0, a);
		o.op = body.substr(a + 1, b - a - 1);
		o.fault = body.substr(b + 1);
	} else {
		o.end = End::error;
		o.fault_id = msg[0] == kLimit ? kLimitId : "internal.error";
		o.fault = body;
	}
}

// The frames the child wrote, in order; a cut-off last frame is dropped.
void take_frames(Outcome &o, const std::string &data) {
	size_t at = 0;
	uint32_t n = 0;
	while (at + 1 + sizeof(n) <= data.size()) {
		std::memcpy(&n, data.data() + at + 1, sizeof(n));
		if (data.size() - at - 1 - sizeof(n) < n)
			break;
		take_message(o, data[at] + data.substr(at + 1 + sizeof(n), n));
		at += 1 + sizeof(n) + n;
	}
}

[[noreturn]] void child(const Job &job, Breadcrumb *bc, int res, int out, int err) {
	use_breadcrumb(bc);
	g_result_fd = res;
	::dup2(out, STDOUT_FILENO);
	::dup2(err, STDERR_FILENO);
	::close(out);
	::close(err);
	::signal(SIGPIPE, SIG_DFL);
	const std::string done = run_job(job);
	const std::string msg = frame(done[0], done.substr(1));
	// Flush what the plugin may have left in the buffers before the result,
	// so the parent has seen every byte when the result pipe closes.
	std::cout.flush();
	std::fflush(stdout);
	std::fflush(stderr);
	write_all(res, msg.data(), msg.size());
	::close(res);
	if (__gcov_dump)
		__gcov_dump();
	if (__llvm_profile_write_file)
		__llvm_profile_write_file();
	::_exit(0);
}

// The first lines of a sanitizer's report in the child's stderr.
std::string sanitizer_lines(const std::string &err) {
	// KernelRuntimeCheck: the kernel runtime's redzones and end-of-case
	// check (kernel/runtime), which stop a plain build the way ASan would.
	static const char *const kMarks[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
					     "ERROR: UndefinedBehaviorSanitizer", ": runtime error: ",
					     "WARNING: MemorySanitizer", "WARNING: ThreadSanitizer",
					     "ERROR: KernelRuntimeCheck"};
	size_t at = std::string::npos;
	for (const char *m : kMarks)
		at = std::min(at, err.find(m));
	if (at == std::string::npos)
		return "";
	at = err.rfind('\n', at);
	at = at == std::string::npos ? 0 : at + 1;
	std::string out;
	std::istringstream is(err.substr(at));
	std::string line;
	for (int n = 0; n < 4 && std::getline(is, line); ++n)
		out += (out.empty() ? "" : " | ") + line;
	return out;
}

struct Pipes {
	int res[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
	bool open() {
		return ::pipe2(res, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0 && ::pipe2(err, O_CLOEXEC) == 0;
	}
	void close_all() {
		for (int *p : {res, out, err})
			for (int i = 0; i < 2; ++i)
				if (p[i] >= 0) {
					::close(p[i]);
					p[i] = -1;
				}
	}
};

// The parent's side: read the three pipes until the child is gone, and
// kill it when a plugin call or the whole job runs out of time.
struct Watch {
	const Limits &lim;
	Breadcrumb &bc;
	pid_t pid;
	std::string msg, err;
	Outcome &o;
	const PartialFn &on_partial;
	bool enough = false;  // on_partial wants no more

	// Hand each complete partial frame to on_partial as it arrives, and let
	// it go: a job that streams its report in partials (replay --json of a
	// big run) must not have it held here as well.
	void partials() {
		if (!on_partial)
			return;
		uint32_t n = 0;
		size_t seen = 0;
		while (seen + 1 + sizeof(n) <= msg.size() && msg[seen] == kPartial) {
			std::memcpy(&n, msg.data() + seen + 1, sizeof(n));
			if (msg.size() - seen - 1 - sizeof(n) < n)
				break;
			if (!enough)
				enough = !on_partial(msg.substr(seen + 1 + sizeof(n), n), o);
			seen += 1 + sizeof(n) + n;
		}
		msg.erase(0, seen);
	}

	// False at the end of the pipe (or an error on it).
	bool read_from(int fd, int which) {
		char buf[65536];
		const ssize_t n = ::read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return true;
		if (n <= 0)
			return false;
		const auto len = static_cast<size_t>(n);
		if (which == 0) {
			msg.append(buf, len);
			partials();
		} else if (which == 1) {
			if (o.stdout_bytes == 0 && o.stdout_op.empty())
				o.stdout_op = op_name(static_cast<PluginOp>(bc.op.load()));
			o.stdout_head.append(buf, std::min(len, kStdoutKept - std::min(kStdoutKept, o.stdout_head.size())));
			o.stdout_bytes += len;
		} else {
			err.append(buf, std::min(len, kStderrKept - std::min(kStderrKept, err.size())));
			o.stderr_bytes += len;
		}
		return true;
	}

	// Returns the End the parent imposed (hung, timed_out), or result if none.
	End loop(Pipes &p) {
		const auto start = Clock::now();
		auto last_change = start;
		uint64_t last_progress = bc.progress.load();
		pollfd fds[3] = {{p.res[0], POLLIN, 0}, {p.out[0], POLLIN, 0}, {p.err[0], POLLIN, 0}};
		int open_fds = 3;
		while (open_fds > 0) {
			const int r = ::poll(fds, 3, kPollMs);
			if (r < 0 && errno != EINTR)
				break;
			// Output before results: what the child printed before it
			// reported an item belongs to that item.
			for (int i : {1, 2, 0}) {
				if (r <= 0)
					break;
				if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				if (!read_from(fds[i].fd, i)) {
					fds[i].fd = -1;	 // EOF
					--open_fds;
				}
			}
			if (enough) {
				::kill(pid, SIGKILL);
				return End::result;
			}
			const auto now = Clock::now();
			const uint64_t progress = bc.progress.load();
			if (progress != last_progress) {
				last_progress = progress;
				last_change = now;
			}
			const bool in_op = bc.op.load() != static_cast<uint32_t>(PluginOp::none);
			const double stalled = std::chrono::duration<double>(now - last_change).count();
			const double total = std::chrono::duration<double>(now - start).count();
			if (lim.op_seconds > 0 && in_op && stalled > lim.op_seconds) {
				::kill(pid, SIGKILL);
				o.limit = lim.op_seconds;
				return End::hung;
			}
			if (lim.job_seconds > 0 && total > lim.job_seconds) {
				::kill(pid, SIGKILL);
				o.limit = lim.job_seconds;
				return End::timed_out;
			}
			// A grandchild may hold the pipes open after the child is gone.
			int st = 0;
			if (open_fds > 0 && r == 0 && ::waitpid(pid, &st, WNOHANG) == pid) {
				for (int i = 0; i < 3; ++i)
					if (fds[i].fd >= 0)
						while (::poll(&fds[i], 1, 0) > 0 && (fds[i].revents & POLLIN) &&
						       read_from(fds[i].fd, i)) {
						}
				o.status = st;
				pid = -1;
				return End::result;
			}
		}
		return End::result;
	}
};

void read_breadcrumb(Outcome &o, const Breadcrumb &bc) {
	o.plugin = bc.plugin;
	if (o.op.empty())
		o.op = bc.op.load() ? std::string(op_name(static_cast<PluginOp>(bc.op.load()))) : "";
	o.context = bc.context;
	o.step = bc.step;
	o.line = bc.line;
	o.case_no = bc.case_no;
	if (o.fault_id.empty() && bc.fault_id[0]) {
		o.fault_id = bc.fault_id;
		o.fault = bc.fault;
	}
	if (bc.stdout_op)
		o.stdout_op = op_name(static_cast<PluginOp>(bc.stdout_op));
	if (bc.record_cases && bc.case_len) {
		o.case_text.assign(bc.case_text, std::min<size_t>(bc.case_len, sizeof(bc.case_text)));
		o.case_truncated = bc.case_truncated != 0;
	}
}

void pass_on_stderr(const std::string &err, uint64_t total) {
	if (err.empty())
		return;
	std::fwrite(err.data(), 1, err.size(), stderr);
	if (total > err.size())
		std::fprintf(stderr, "[niovcheck worker: %llu more bytes of the job's stderr not shown]\n",
			     static_cast<unsigned long long>(total - err.size()));
	std::fflush(stderr);
}

Outcome run_here(const Job &job, const PartialFn &on_partial) {
	Outcome o;
	const auto start = Clock::now();
	g_in_process.clear();
	const std::string done = run_job(job);
	bool more = true;
	for (auto &p : g_in_process) {
		if (on_partial && more)
			more = on_partial(p, o);
		if (!on_partial)
			o.partial.push_back(std::move(p));
	}
	g_in_process.clear();
	take_message(o, done);
	o.seconds = std::chrono::duration<double>(Clock::now() - start).count();
	read_breadcrumb(o, breadcrumb());
	return o;
}

}  // namespace

void emit(const std::string &partial) {
	if (g_result_fd < 0) {
		g_in_process.push_back(partial);
		return;
	}
	const std::string f = frame(kPartial, partial);
	write_all(g_result_fd, f.data(), f.size());
}

void stream(std::string_view piece) {
	std::string p(1, kChunkMark);
	p.append(piece);
	emit(p);
}

bool limits_from_env(Limits &l, std::string &error) {
	if (!env_seconds("NIOV_OP_TIMEOUT", l.op_seconds, error) || !env_seconds("NIOV_JOB_TIMEOUT", l.job_seconds, error))
		return false;
	const char *nw = std::getenv("NIOV_NO_WORKER");
	if (nw && *nw && std::strcmp(nw, "0") != 0)
		l.in_process = true;
	return true;
}

Outcome run(const Job &job, const Limits &lim, const PartialFn &on_partial) {
	if (lim.in_process)
		return run_here(job, on_partial);
	Outcome o;
	void *mem = ::mmap(nullptr, sizeof(Breadcrumb), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		o.fault = fmt::format("mmap of the breadcrumb failed: {}", std::strerror(errno));
		return o;
	}
	auto *bc = new (mem) Breadcrumb{};
	bc->record_cases = lim.record_cases;
	Pipes p;
	// Buffered output of ours would be written twice: by us and the child.
	std::cout.flush();
	std::fflush(nullptr);
	const auto start = Clock::now();
	const pid_t pid = p.open() ? ::fork() : -1;
	if (pid == 0)
		child(job, bc, p.res[1], p.out[1], p.err[1]);
	if (pid < 0) {
		o.fault = fmt::format("cannot start a worker: {}", std::strerror(errno));
		p.close_all();
		::munmap(mem, sizeof(Breadcrumb));
		return o;
	}
	for (int *w : {&p.res[1], &p.out[1], &p.err[1]}) {
		::close(*w);
		*w = -1;
	}
	Watch w{lim, *bc, pid, {}, {}, o, on_partial};
	const End imposed = w.loop(p);
	int st = o.status;
	if (w.pid > 0)
		while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
		}
	p.close_all();
	o.seconds = std::chrono::duration<double>(Clock::now() - start).count();
	take_frames(o, w.msg);
	read_breadcrumb(o, *bc);
	::munmap(mem, sizeof(Breadcrumb));
	o.sanitizer = sanitizer_lines(w.err);
	pass_on_stderr(w.err, o.stderr_bytes);

	if (imposed != End::result) {
		o.end = imposed;
		o.status = 0;
	} else if (o.end == End::not_started) {  // no message: the child died on the way
		if (WIFSIGNALED(st)) {
			o.end = End::signaled;
			o.status = WTERMSIG(st);
		} else {
			o.end = End::exited;
			o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		}
	} else if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0)) {
		// It said its piece and then died: still not a clean job.
		o.fault_id = "plugin.signal";
		o.fault = fmt::format("died after returning its result ({} {})",
				      WIFSIGNALED(st) ? "signal" : "status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		o.end = End::fault;
	}
	return o;
}

void run_batch(const Batch &b, const Limits &lim) {
	size_t next = 0;
	while (next < b.items) {
		const size_t from = next;
		uint64_t printed = 0;
		bool stop = false;
		const Outcome o = run(
			[&] {
				for (size_t k = from; k < b.items; ++k) {
					// The item's mark tells its result from its stream()ed pieces.
					const std::string r = kItemMark + b.item(k);
					std::cout.flush();
					std::fflush(stdout);  // the item's output before the result that owns it
					emit(r);
				}
				return std::string();
			},
			lim,
			[&](const std::string &framed, const Outcome &so_far) {
				if (!framed.empty() && framed[0] == kChunkMark) {
					if (b.chunk)
						b.chunk(next, std::string_view(framed).substr(1));
					return true;
				}
				const std::string r = framed.substr(1);
				const uint64_t mine = so_far.stdout_bytes - printed;
				printed = so_far.stdout_bytes;
				stop = !b.done(next++, r, mine, so_far);
				return !stop;
			});
		// A job that returns has run every item (or was told to stop).
		if (stop || o.end == End::result)
			return;
		if (next >= b.items)  // died after its last item: say so on the last
			next = b.items - 1;
		if (!b.died(next++, o))
			return;
	}
}

std::string Outcome::id() const {
	switch (end) {
	case End::result:
		return !sanitizer.empty() ? "plugin.sanitizer" : stdout_bytes ? "plugin.stdout" : "";
	case End::fault:
	case End::error:
		return fault_id.empty() ? "internal.error" : fault_id;
	case End::exited:
	case End::signaled:
		if (!fault_id.empty())
			return fault_id;
		if (!sanitizer.empty())
			return "plugin.sanitizer";
		return end == End::exited ? "plugin.exit" : "plugin.signal";
	case End::hung:
		return "plugin.hang";
	case End::timed_out:
		return "plugin.timeout";
	case End::not_started:
		return "internal.error";
	}
	return "internal.error";
}

std::string Outcome::where() const {
	std::string s;
	if (!op.empty())
		s += "in " + op + (plugin.empty() ? "" : " of " + plugin);
	else if (!plugin.empty())
		s += "plugin " + plugin;
	if (!context.empty())
		s += (s.empty() ? "" : ", ") + context;
	// A job that returned ended past its last step: the step says nothing.
	if (end != End::result && (step || line))
		s += fmt::format(", step {}{}", step, line ? fmt::format(" (line {})", line) : "");
	if (end != End::result && case_no)
		s += fmt::format(", case {}", case_no);
	return s;
}

std::string Outcome::what() const {
	const std::string in_op = op.empty() ? " (not in a plugin call)" : " in " + op;
	std::string s;
	switch (end) {
	case End::result:
		break;
	case End::fault:
	case End::error:
		s = fault;
		break;
	case End::exited:
		s = !fault.empty() ? fault
				   : fmt::format("exited with status {}{} without a result", status, in_op);
		break;
	case End::signaled:
		s = fmt::format("killed by {}{}", sigabbrev_np(status) ? std::string("SIG") + sigabbrev_np(status)
								       : fmt::format("signal {}", status),
				in_op);
		if (fault_id == "plugin.exit")
			s = fault;  // the exit guard's abort is ours, not news
		else if (!fault.empty())
			s = fault + " (" + s + ")";
		break;
	case End::hung:
		s = fmt::format("hung{}: no return after {:g} s (killed)", in_op, limit);
		break;
	case End::timed_out:
		s = fmt::format("did not finish within {:g} s{} (killed)", limit, in_op);
		break;
	case End::not_started:
		s = fault;
		break;
	}
	if (!sanitizer.empty())
		s += (s.empty() ? "" : "; ") + std::string("sanitizer report: ") + sanitizer;
	if (stdout_bytes) {
		std::string head = stdout_head.substr(0, 60);
		for (char &c : head)
			if (c == '\n' || c == '\r' || c == '\t')
				c = ' ';
		s += (s.empty() ? "" : "; ") +
		     fmt::format("wrote {} bytes to stdout{}: '{}'", stdout_bytes,
				 stdout_op.empty() ? "" : " in " + stdout_op, head);
	}
	return s;
}

}  // namespace niov::worker
