#include "kernel_sanitizer.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../kernel/tool/sanitizer_report.hpp"
#include "commands.hpp"
#include "kernel_build.hpp"

namespace niov::cli {

namespace {

constexpr const char *kChildMark = "NIOV_SANITIZER_CHILD";
constexpr std::size_t kKeptStderr = 4u << 20;	// the report is at the end; keep the tail

// Reporting, not hunting leaks: one error stops the run and is symbolized;
// a failing malloc is NULL to the code, as kmalloc is.  The user's own
// options come after and win.  NIOV_ASAN_LEAKS=1 turns leak checks on.
std::string with_user_options(const char *defaults, const char *var) {
	std::string v = defaults;
	if (const char *user = std::getenv(var); user && *user) v += std::string(":") + user;
	return v;
}

std::string asan_runtime() {
	if (const char *p = std::getenv("NIOV_ASAN_RUNTIME"); p && *p) return p;
	std::string path;
	if (FILE *f = popen("gcc -print-file-name=libasan.so 2>/dev/null", "r")) {
		char buf[4096];
		if (std::fgets(buf, sizeof buf, f)) path = buf;
		pclose(f);
	}
	while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
	if (path.empty() || path.find('/') == std::string::npos || access(path.c_str(), R_OK) != 0)
		throw UsageError("the plugin needs the ASan runtime and `gcc -print-file-name=libasan.so` finds none "
				 "(install gcc's libasan, or set NIOV_ASAN_RUNTIME)");
	return path;
}

std::string exe_to_rerun() {
	char buf[4096];
	const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0) throw UsageError("cannot find the niovcheck executable to rerun under ASan");
	return std::string(buf, static_cast<std::size_t>(n));
}

std::string command_line(const std::vector<std::string> &args) {
	std::string s = "niovcheck";
	for (const auto &a : args) s += " " + a;
	return s;
}

// Child: the command again, the runtime first, stderr into @fd.
[[noreturn]] void exec_child(const std::string &exe, const std::vector<std::string> &args, int fd,
			     const std::string &runtime) {
	std::string preload = runtime;
	if (const char *old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
	const bool leaks = std::getenv("NIOV_ASAN_LEAKS") && std::string(std::getenv("NIOV_ASAN_LEAKS")) == "1";
	setenv("LD_PRELOAD", preload.c_str(), 1);
	setenv("ASAN_OPTIONS",
	       with_user_options(leaks ? "detect_leaks=1:halt_on_error=1:symbolize=1:allocator_may_return_null=1"
				       : "detect_leaks=0:halt_on_error=1:symbolize=1:allocator_may_return_null=1",
				 "ASAN_OPTIONS").c_str(), 1);
	setenv("UBSAN_OPTIONS", with_user_options("print_stacktrace=1:halt_on_error=1", "UBSAN_OPTIONS").c_str(), 1);
	setenv(kChildMark, "1", 1);
	dup2(fd, 2);
	std::vector<char *> argv;
	argv.push_back(const_cast<char *>(exe.c_str()));
	for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	execv(exe.c_str(), argv.data());
	std::fprintf(stderr, "niovcheck: cannot rerun %s under ASan: %s\n", exe.c_str(), std::strerror(errno));
	_exit(kExitBadInput);
}

// Parent: pass the child's stderr through as it comes, keeping its tail.
std::string pass_through(int fd) {
	std::string kept;
	char buf[8192];
	for (;;) {
		const ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) break;
		(void)!write(2, buf, static_cast<std::size_t>(n));
		kept.append(buf, static_cast<std::size_t>(n));
		if (kept.size() > 2 * kKeptStderr) kept.erase(0, kept.size() - kKeptStderr);
	}
	return kept;
}

// What the scenario under test is, for the finding line.
std::string scenario_of(const std::vector<std::string> &args) {
	if (!args.empty() && (args[0] == "replay" || args[0] == "explain"))
		for (std::size_t i = 1; i < args.size(); i++)
			if (args[i].rfind("--", 0) != 0 && (i == 1 || args[i - 1].rfind("--", 0) != 0))
				return args[i];
	return "";
}

// `all --kernel DIR --asan` or `kernel check DIR --asan`: the plugin is
// built inside the run, so the command alone says it needs the runtime.
bool asks_for_asan_run(int argc, char **argv) {
	const std::string cmd = argc > 1 ? argv[1] : "";
	if (cmd != "all" && !(cmd == "kernel" && argc > 2 && std::string(argv[2]) == "check")) return false;
	for (int i = 2; i < argc; i++)
		if (std::string(argv[i]) == "--asan") return true;
	return false;
}

}  // namespace

std::optional<std::string> impl_argument(int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a == "--impl" && i + 1 < argc) return std::string(argv[i + 1]);
		if (a.rfind("--impl=", 0) == 0) return a.substr(7);
	}
	return std::nullopt;
}

bool process_has_asan() {
	return dlsym(RTLD_DEFAULT, "__asan_init") != nullptr;
}

int run_with_sanitizer(const std::vector<std::string> &args) {
	const std::string runtime = asan_runtime(), exe = exe_to_rerun();
	int fds[2];
	if (pipe(fds) != 0) throw UsageError(std::string("pipe: ") + std::strerror(errno));
	std::fflush(stdout);
	const pid_t pid = fork();
	if (pid < 0) throw UsageError(std::string("fork: ") + std::strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		exec_child(exe, args, fds[1], runtime);
	}
	close(fds[1]);
	const std::string err = pass_through(fds[0]);
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}

	const auto finding = kernel::parse_sanitizer_report(err);
	const std::string scenario = scenario_of(args);
	if (finding) {
		std::printf("FINDING %s%s\n", finding->one_line().c_str(),
			    scenario.empty() ? "" : (" on scenario " + scenario).c_str());
		std::printf("  replay: %s\n", command_line(args).c_str());
		std::printf("verdict: FINDING (the sanitizer stopped the run inside the plugin)\n");
		return kExitViolation;
	}
	if (WIFSIGNALED(status)) {
		std::printf("FINDING the run under ASan was killed by signal %d (%s)%s\n", WTERMSIG(status),
			    strsignal(WTERMSIG(status)), scenario.empty() ? "" : (" on scenario " + scenario).c_str());
		std::printf("  replay: %s\n", command_line(args).c_str());
		return kExitViolation;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : kExitBadInput;
}

std::optional<int> rerun_under_sanitizer_if_needed(int argc, char **argv) {
	if (std::getenv(kChildMark)) {
		// a sanitizer stops the child without flushing stdio: keep whole lines
		std::setvbuf(stdout, nullptr, _IOLBF, 0);
		return std::nullopt;
	}
	if (process_has_asan()) return std::nullopt;
	if (asks_for_asan_run(argc, argv)) return run_with_sanitizer(std::vector<std::string>(argv + 1, argv + argc));
	const auto impl = impl_argument(argc, argv);
	if (!impl || !plugin_needs_asan(*impl)) return std::nullopt;
	return run_with_sanitizer(std::vector<std::string>(argv + 1, argv + argc));
}

}  // namespace niov::cli
