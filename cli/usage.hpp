// `niovcheck help`, `niovcheck CMD --help`.
#pragma once

#include <string>

namespace niov::cli {

// "" for an unknown command.
std::string command_usage(const std::string &cmd);
std::string overall_usage();

}  // namespace niov::cli
