// The replay commands the suite prints, which users paste and `niovcheck
// all` runs again through sh: "CLI replay FILE [--impl PLUGIN] [FLAGS]",
// each path one word whatever it holds (a space, a quote, a ';' in a work
// folder's name).  The one builder every engine uses.
#pragma once

#include <string>
#include <string_view>

namespace niov {

// @s as one POSIX shell word: bare when every character is one no shell
// treats specially (letters, digits, - _ . / : = @ % + ,), else in single
// quotes with each quote inside written as '\''.
std::string shell_quote(std::string_view s);

// @flags are already words (--rules P --policy K=V): they pin what the run
// had in force so the command replays exactly that run.  An empty @plugin
// replays the model alone.
std::string replay_command_line(const std::string &cli, const std::string &file, const std::string &plugin,
				const std::string &flags);

}  // namespace niov
