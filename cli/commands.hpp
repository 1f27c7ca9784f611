// The niovcheck subcommands.
#pragma once

#include "args.hpp"

namespace niov::cli {

int cmd_replay(Args &args, bool explain);
int cmd_check(Args &args);
int cmd_simulate(Args &args);
// Engines, one file each (cmd_<name>.cpp): properties, fuzz corpus tools,
// the bug scoreboard.
int cmd_props(Args &args);
int cmd_corpus(Args &args);
int cmd_mutants(Args &args);

}  // namespace niov::cli
