// The folders the suite writes its run files into, and what it may delete.
//
// A user's files are never the suite's to delete: a folder the suite made
// holds a marker file it wrote, and only a folder with that marker is ever
// cleared.  An existing folder without it is taken only when empty; anything
// else is refused, so `--work-dir .` or `--work-dir ~/src` cannot cost a
// user a file.  Names that come from a plugin never become path components
// as they are (a plugin named "x/../../victim" gets a folder "x_.._.._victim").
#pragma once

#include <string>

namespace niov::cli {

// The marker's file name inside a work folder.
inline constexpr const char *kWorkMarker = ".niovcheck-work";

// @name as one harmless path component: letters, digits, '.', '-', '_'
// (anything else '_'), never "." or "..", never empty, at most 64 bytes.
std::string safe_component(const std::string &name);

// Makes @dir ready for one run and returns it absolute.  A missing folder is
// created and marked; an empty one is marked; a marked one is cleared of the
// previous run's files.  Throws UsageError (one line naming @dir and @option)
// for a file, a folder with files the suite did not create, or a folder
// that cannot be written.
std::string prepare_work_dir(const std::string &dir, const std::string &option);

}  // namespace niov::cli
