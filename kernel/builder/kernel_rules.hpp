// The rules a kernel tree's code is checked against: the era's preset the
// code's own choices fit best (kernel/tool/rule_choices.hpp), plus every
// choice that differs from it, each with the file:line that states it.
#pragma once

#include <string>
#include <vector>

#include "era_probe.hpp"

namespace niov::cli {

struct KernelRules {
	std::string preset;		   // e.g. "tx-autosize"
	std::string policy;		   // the overrides on top of it ("truesize=page"), "" = none
	std::vector<std::string> lines;	   // "tx_niov=auto: net/core/netdev-genl.c:1237: ..." per choice read
	std::vector<std::string> ambiguous;  // what the code does not say plainly (ask for --rules/--policy)
	std::vector<std::string> notes;	     // choices the model cannot express (judged by the preset's)
};

// Throws kernel::KernelTreeError when the era names no preset.
KernelRules kernel_rules(const kernel::EraProbe &era);

}  // namespace niov::cli
