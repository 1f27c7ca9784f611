// What kernel_build() will build from a tree (kernel_build.cpp): the tree's
// files, the era, the rules, the compiler and its flags, and the cache key
// they give.  Apart from kernel_build.hpp for the tests of the key.
#pragma once

#include <string>
#include <vector>

#include "era_probe.hpp"
#include "kernel_rules.hpp"

namespace niov::cli {

struct Plan {
	std::string tree;
	kernel::EraProbe era;
	KernelRules rules;	// the code's rules: the plugin declares them
	bool asan = false;
	bool coverage = false;
	std::vector<std::string> tree_files;	 // relative paths the build reads
	std::string fill_text;			 // the extracted fill ("" = none)
	std::vector<std::string> real_headers;	 // relative paths
	std::string cc;
	std::vector<std::string> cflags;	 // every unit and the link
	std::vector<std::string> kernel_cflags;	 // the units built behind the shim
};

// Throws kernel::KernelTreeError when the tree cannot be taken.
Plan make_plan(const std::string &tree, bool asan, bool coverage, const std::string &cc);

// The cache entry's name: a hash of every input and of every command the
// build runs.
std::string plan_hash(const Plan &p);

}  // namespace niov::cli
