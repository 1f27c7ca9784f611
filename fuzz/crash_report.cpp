#include "crash_report.hpp"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "breadcrumb.hpp"

namespace niov::fuzz {

namespace {

char g_target_name[32];
char g_replay[1024];
volatile sig_atomic_t g_done = 0;
unsigned g_watchdog_seconds = 0;
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
struct sigaction g_old[sizeof(kSignals) / sizeof(kSignals[0])];
bool g_installed = false;

void put(char *&p, char *end, const char *s) {
	while (*s && p < end)
		*p++ = *s++;
}

void put_number(char *&p, char *end, unsigned v) {
	char tmp[12];
	int n = 0;
	do
		tmp[n++] = static_cast<char>('0' + v % 10);
	while ((v /= 10) && n < 12);
	while (n && p < end)
		*p++ = tmp[--n];
}

void print_line(const char *id, const char *what_prefix, const char *what) {
	const Breadcrumb &b = breadcrumb();
	const std::string_view op = op_name(static_cast<PluginOp>(b.op.load()));
	char buf[2048];
	char *p = buf, *end = buf + sizeof(buf) - 1;
	put(p, end, "niovcheck-fuzz ");
	put(p, end, g_target_name);
	put(p, end, ": ");
	put(p, end, id);
	put(p, end, " (");
	put(p, end, b.plugin);
	put(p, end, ", ");
	for (char c : op)
		if (p < end)
			*p++ = c;
	put(p, end, ", step ");
	put_number(p, end, b.step);
	put(p, end, "): ");
	put(p, end, what_prefix);
	put(p, end, what);
	put(p, end, " | replay: ");
	put(p, end, g_replay);
	*p++ = '\n';
	(void)!write(STDERR_FILENO, buf, static_cast<size_t>(p - buf));
	g_done = 1;
}

void on_signal(int sig, siginfo_t *info, void *ctx) {
	const Breadcrumb &b = breadcrumb();
	if (!g_done && (b.op.load() != 0 || b.fault_id[0])) {
		const char *abbrev = sigabbrev_np(sig);
		char what[64] = "killed by SIG";
		strncat(what, abbrev ? abbrev : "?", sizeof(what) - strlen(what) - 1);
		if (b.fault_id[0])
			print_line(b.fault_id, "", b.fault);
		else
			print_line("plugin.signal", "", what);
	}
	for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
		if (kSignals[i] != sig)
			continue;
		const struct sigaction old = g_old[i];
		sigaction(sig, &old, nullptr);
		// The previous handler (libFuzzer's, which saves the input) is
		// called here: a handler that returns from abort()'s SIGABRT gets
		// SIG_DFL from glibc before it raises again, so chaining by return
		// ended the process without a crash file.
		if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
			old.sa_sigaction(sig, info, ctx);
			return;
		}
		if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
			old.sa_handler(sig);
			return;
		}
	}
	// The default action: returning re-runs the faulting instruction, and
	// abort() raises again.
	if (sig != SIGSEGV && sig != SIGBUS && sig != SIGABRT)
		raise(sig);
}

void on_alarm(int) {
	if (breadcrumb().op.load() != 0) {
		char what[64] = "no return after ";
		char *p = what + strlen(what);
		put_number(p, what + sizeof(what) - 8, g_watchdog_seconds);
		strcpy(p, " s");
		print_line("plugin.hang", "", what);
	}
	signal(SIGABRT, SIG_DFL);
	abort();
}

}  // namespace

void crash_report_install(const std::string &target) {
	crumb_copy(g_target_name, sizeof(g_target_name), target);
	if (g_installed)
		return;
	struct sigaction sa {};
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i)
		sigaction(kSignals[i], &sa, &g_old[i]);
	g_installed = true;
}

void crash_report_uninstall() {
	if (!g_installed)
		return;
	for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i)
		sigaction(kSignals[i], &g_old[i], nullptr);
	g_installed = false;
}

void crash_report_replay(const std::string &replay) { crumb_copy(g_replay, sizeof(g_replay), replay); }
void crash_report_done() { g_done = 1; }

void watchdog_arm() {
	if (!g_watchdog_seconds) {
		const char *e = std::getenv("NIOV_OP_TIMEOUT");
		const double s = e && *e ? std::strtod(e, nullptr) : 10;
		g_watchdog_seconds = s > 0 ? static_cast<unsigned>(std::ceil(s)) : 10;
		signal(SIGALRM, on_alarm);
	}
	alarm(g_watchdog_seconds);
}

void watchdog_disarm() { alarm(0); }

}  // namespace niov::fuzz
