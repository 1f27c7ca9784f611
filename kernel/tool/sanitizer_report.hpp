// A sanitizer's report (ASan or UBSan on stderr) as a finding in the
// kernel code: what fired, and the first frame that is the tree's own
// (not the shim, runtime or adapter around it).
#pragma once

#include <optional>
#include <string>

namespace niov::kernel {

struct SanitizerFinding {
	std::string sanitizer;	// "AddressSanitizer", "UndefinedBehaviorSanitizer"
	std::string kind;	// "heap-buffer-overflow", "runtime error: ..."
	std::string function;	// the tree's function it fired in ("" if none of its frames)
	std::string file;	// its file in the tree
	unsigned line = 0;
	// The kernel runtime's check finds a write after the fact: it names the
	// call site that allocated the block, not the one that wrote.
	bool allocation_site = false;
	std::string one_line() const;  // "heap-buffer-overflow in f() at file:line (AddressSanitizer)"
};

std::optional<SanitizerFinding> parse_sanitizer_report(const std::string &text);

}  // namespace niov::kernel
