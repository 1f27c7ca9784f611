// Building an ABI v2 plugin from a kernel tree: the tree's own devmem.c,
// genalloc.c and TX fill compiled behind the shim of kernel/ (see
// kernel/README.md), cached by the content of every input.
#pragma once

#include <string>
#include <vector>

#include "era_probe.hpp"
#include "kernel_rules.hpp"

namespace niov::cli {

struct KernelBuildOptions {
	bool asan = false;	  // -fsanitize=address,undefined
	std::string output;	  // copy the plugin here ("" = leave it in the cache)
	std::string cache_dir;	  // "" = kernel_cache_dir()
	bool force = false;	  // rebuild even when the cache has it
	bool quiet = false;	  // no progress lines on stderr
	std::string cc;		  // the compiler ("" = $NIOV_KERNEL_CC, else gcc)
	// gcov counters in the tree's code (devmem.c with the fill, genalloc.c),
	// and beside the plugin flush.so (kernel/coverage/flush_at_exit.c),
	// which a process preloads so its children's counters are written too.
	bool coverage = false;
};

struct KernelBuild {
	std::string plugin;	  // path of the .so
	kernel::EraProbe era;
	std::string rules;	  // the preset the code is checked against
	std::string policy;	  // policy overrides on top of it, from the code ("" = none)
	KernelRules read;	  // how the code's choices gave them
	bool cached = false;	  // nothing was compiled
	bool asan = false;
	bool coverage = false;
	std::string build_dir;	  // where the objects, shadows and build.log are
	// The tree's files the probe and the build read (relative, sorted): two
	// trees alike in these give the same plugin and the same rules.
	std::vector<std::string> inputs;
};

// Throws kernel::KernelTreeError (one line) when the tree cannot be taken
// or does not compile.
KernelBuild kernel_build(const std::string &tree, const KernelBuildOptions &opt);

// $NIOV_KERNEL_CACHE, else $XDG_CACHE_HOME/niovcheck/kernel, else
// ~/.cache/niovcheck/kernel.
std::string kernel_cache_dir();

// Does the shared object at @path need the ASan runtime (built --asan)?
bool plugin_needs_asan(const std::string &path);

}  // namespace niov::cli
