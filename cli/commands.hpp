// The niovcheck subcommands.
#pragma once

#include "args.hpp"

namespace niov::cli {

int cmd_replay(Args &args, bool explain);
int cmd_check(Args &args);
int cmd_simulate(Args &args);

}  // namespace niov::cli
