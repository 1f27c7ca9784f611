// Kernel WARNs of a run, counted per site.  The kernel runtime writes
// every hit as a line to $NIOV_KERNEL_WARN_LOG (kernel/runtime/
// libc_bridge.h), with what the engine was at; `all` points it into its
// work folder and reports each site once: file:line, how often, where
// first.  The terminal no longer gets the same line thousands of times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace niov::cli {

struct WarnSite {
	std::string site;   // "net/core/devmem.c:67" as the tree names it
	std::string what;   // "WARN(binding->free_count != ...)"
	uint64_t count = 0;
	std::string first;  // what the engine was at when it first fired
};

// Points the runtime's log at @work/kernel-warn.log (emptied); its path.
std::string start_warn_log(const std::string &work);

// The sites in the log, in the order they first fired.
std::vector<WarnSite> read_warn_log(const std::string &path);

}  // namespace niov::cli
