// Running the tools `kernel series` leans on (git, patch, diff, gcov, and
// niovcheck itself for the coverage run): argv, no shell, so no name in a
// patch or a revision is ever interpreted as a command.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace niov::cli {

struct ExecResult {
	int code = -1;	  // the exit status; 128 + N for a death by signal N; 127 not found
	std::string out;  // its stdout
	std::string err;  // its stderr
};

struct ExecOptions {
	std::string cwd;				      // "" = ours
	std::string stdin_file;				      // "" = /dev/null
	std::vector<std::pair<std::string, std::string>> env;  // set in the child
	std::string stdout_file;  // send stdout there instead of capturing it ("" = capture)
};

// Runs @argv (searched in $PATH) with LC_ALL=C; stdout and stderr are
// collected through files in @scratch, which must exist.
ExecResult exec_capture(const std::vector<std::string> &argv, const std::string &scratch, const ExecOptions &opt = {});

}  // namespace niov::cli
