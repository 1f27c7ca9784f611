// The niovcheck subcommands.
#pragma once

#include <string>

#include "args.hpp"
#include "decode.hpp"
#include "rules_in_force.hpp"

namespace niov::cli {

int cmd_replay(Args &args, bool explain);
int cmd_check(Args &args);
int cmd_simulate(Args &args);
// Engines, one file each (cmd_<name>.cpp): properties, fuzz corpus tools,
// proofs, the bug scoreboard.
int cmd_props(Args &args);
int cmd_corpus(Args &args);
int cmd_prove(Args &args);
int cmd_mutants(Args &args);
int cmd_all(Args &args);
int cmd_plugin(int argc, char **argv);
// Where `plugin build` takes the ABI headers, shim and common code from.
std::string plugin_sdk_dir();
// A plugin from a kernel tree (cmd_kernel.cpp); takes argv itself for -o.
int cmd_kernel(int argc, char **argv);

// `corpus decode`: a fuzz input of target @t as a scenario file, pinned to
// @impl's rules when given (as the fuzz targets pin them under $NIOV_IMPL).
int corpus_decode(fuzz::Target t, const std::string &in, const std::string &out, const std::string &impl,
		  const RulesRequest &rules);

}  // namespace niov::cli
