// Small argument helpers shared by the subcommands.  Bad input is reported as
// a UsageError: one line, exit code 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace niov::cli {

struct UsageError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

inline constexpr int kExitClean = 0;
inline constexpr int kExitViolation = 1;
inline constexpr int kExitBadInput = 2;

class Args {
public:
	Args(int argc, char **argv, int first);
	bool flag(const std::string &name);			   // --name
	std::string option(const std::string &name, std::string def);  // --name VALUE
	std::vector<std::string> options(const std::string &name);     // every --name VALUE
	uint64_t number(const std::string &name, uint64_t def);	   // with K/M/G suffixes
	std::vector<std::string> positional();			   // after options are taken
	void done();  // rejects anything left over
private:
	std::vector<std::string> a_;
	std::vector<bool> used_;
};

}  // namespace niov::cli
