// The inputs a plain driver runs (the replay drivers, feature_stability):
// files named on the command line, and every regular file under a folder
// named there, recursively, except the engines' side files (.dict,
// .options, .md, dot files).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace niov::fuzz {

// Appends @p's inputs to @out; false when @p is neither a file nor a
// readable folder.  Callers sort: runs go in the same order everywhere.
bool collect_inputs(const std::filesystem::path &p, std::vector<std::filesystem::path> &out);

// The file's bytes; nullopt when it cannot be opened.
std::optional<std::vector<uint8_t>> read_input(const std::filesystem::path &p);

}  // namespace niov::fuzz
