#include "sanitizer_report.hpp"

#include <regex>
#include <sstream>

namespace niov::kernel {

namespace {

// Frames of ours (the harness around the kernel code) and of the sanitizer.
bool ours(const std::string &file) {
	for (const char *p : {"/kernel/runtime/", "/kernel/adapters/", "/kernel/shim/", "/plugins/shim/",
			      "libsanitizer", "/libc", "sysdeps/"})
		if (file.find(p) != std::string::npos) return true;
	return false;
}

}  // namespace

std::string SanitizerFinding::one_line() const {
	std::string s = kind;
	if (!function.empty()) s += (allocation_site ? " allocated in " : " in ") + function + "()";
	if (!file.empty()) s += " at " + file + ":" + std::to_string(line);
	return s + " (" + sanitizer + ")";
}

std::optional<SanitizerFinding> parse_sanitizer_report(const std::string &text) {
	static const std::regex asan(R"(ERROR: (AddressSanitizer|LeakSanitizer): ([A-Za-z0-9_-]+))");
	static const std::regex ubsan(R"(^(\S+):(\d+):\d+: runtime error: (.*)$)");
	static const std::regex frame(R"(^\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+):(\d+))");
	// kernel/runtime's report: the whole story is on its first line.
	static const std::regex runtime(R"(ERROR: (KernelRuntimeCheck): (.*?)(?: allocated in (\S+)\(\) at (\S+):(\d+))?$)");
	std::istringstream in(text);
	std::string line;
	std::optional<SanitizerFinding> f;
	while (std::getline(in, line)) {
		std::smatch m;
		if (!f && std::regex_search(line, m, runtime)) {
			f = SanitizerFinding{m[1], m[2], m[3], m[4], m[5].matched ? static_cast<unsigned>(std::stoul(m[5])) : 0};
			f->allocation_site = m[3].matched;
			break;
		}
		if (!f && std::regex_search(line, m, asan)) {
			f = SanitizerFinding{m[1], m[2], "", "", 0};
			continue;
		}
		if (!f && std::regex_search(line, m, ubsan)) {
			f = SanitizerFinding{"UndefinedBehaviorSanitizer", "runtime error: " + m[3].str(), "",
					     m[1], static_cast<unsigned>(std::stoul(m[2]))};
			if (ours(f->file)) f->file.clear(), f->line = 0;
			continue;
		}
		// the access's stack comes first; stop at the allocation's
		if (f && line.find("allocated by thread") != std::string::npos) break;
		if (f && f->function.empty() && std::regex_search(line, m, frame) && !ours(m[2])) {
			f->function = m[1];
			f->file = m[2];
			f->line = static_cast<unsigned>(std::stoul(m[3]));
		}
	}
	return f;
}

}  // namespace niov::kernel
