// A plugin built with --asan (plugin build, kernel build) needs the ASan
// runtime loaded before anything else.  Rather than asking every user for
// LD_PRELOAD, niovcheck restarts itself with it when --impl names such a
// plugin.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "commands.hpp"
#include "kernel_build.hpp"

namespace niov::cli {

namespace {

std::string impl_argument(int argc, char **argv) {
	for (int i = 1; i < argc; ++i) {
		const std::string a = argv[i];
		if (a == "--impl" && i + 1 < argc)
			return argv[i + 1];
		if (a.rfind("--impl=", 0) == 0)
			return a.substr(7);
	}
	return "";
}

// gcc's libasan, as the plugin was linked against it.
std::string asan_runtime() {
	FILE *p = popen("gcc -print-file-name=libasan.so 2>/dev/null", "r");
	if (!p)
		return "";
	char buf[4096] = {0};
	const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
	pclose(p);
	std::string s = got ? buf : "";
	while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
		s.pop_back();
	return s.find('/') == std::string::npos ? "" : s;
}

}  // namespace

void reexec_under_asan_if_needed(int argc, char **argv) {
	const std::string impl = impl_argument(argc, argv);
	if (impl.empty() || !plugin_needs_asan(impl) || dlsym(RTLD_DEFAULT, "__asan_init"))
		return;
	if (std::getenv("NIOV_ASAN_REEXEC"))  // already tried: let dlopen say why it fails
		return;
	const std::string rt = asan_runtime();
	if (rt.empty())
		return;
	std::fprintf(stderr, "niovcheck: %s is built with ASan: running under %s (LD_PRELOAD)\n", impl.c_str(), rt.c_str());
	setenv("NIOV_ASAN_REEXEC", "1", 1);
	setenv("LD_PRELOAD", rt.c_str(), 1);
	// Leaks are the isolation checks' business; ASan's exit-time report
	// would turn every run into a failure of the host.
	setenv("ASAN_OPTIONS", std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "detect_leaks=0", 1);
	execv("/proc/self/exe", argv);
}

}  // namespace niov::cli
