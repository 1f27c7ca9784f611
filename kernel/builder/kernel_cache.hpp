// The kernel plugin cache (kernel_build.hpp): one folder per set of inputs,
// named by their hash, holding plugin.so and a record of what it is.  A
// cached plugin is used only when the record says it was built for this
// folder and plugin.so is still the file that was built: a truncated or
// garbage plugin, or another tree's copied into the slot, is rebuilt (and
// the rebuild says why), never taken for this tree's.
#pragma once

#include <filesystem>
#include <string>

namespace niov::cli {

// "" when @entry's plugin.so is the one built for it, else why not.
std::string cache_entry_mismatch(const std::filesystem::path &entry);

// Writes the record of a plugin just built in @build_dir, which becomes
// the entry named @entry_name.  Throws KernelTreeError when it cannot.
void record_cache_entry(const std::filesystem::path &build_dir, const std::string &entry_name);

// Removes the <entry>.tmp.<pid> folders of builds whose process is gone
// (interrupted, killed): they are the cache's own and nobody finishes them.
void clean_interrupted_builds(const std::filesystem::path &cache);

// " (N KiB free on the disk of DIR)" when the cache's disk is all but
// full, "": a failed compile with an empty log says why.
std::string cache_space_note(const std::filesystem::path &cache);

}  // namespace niov::cli
