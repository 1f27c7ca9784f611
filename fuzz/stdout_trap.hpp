// The plugin's stdout during fuzzing: a memory file, so a plugin that prints
// is a finding ("plugin.stdout") rather than megabytes on the fuzzer's
// output.  Nothing else in a fuzzing process writes to stdout (libFuzzer and
// the harness report on stderr), so the trap is set before the first plugin
// run and stays until release(): setting and restoring it around every run
// (two dup2 and an fstat) was 5 % of a send input with a plugin.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace niov::fuzz {

class StdoutTrap {
public:
	StdoutTrap();
	StdoutTrap(const StdoutTrap &) = delete;
	StdoutTrap &operator=(const StdoutTrap &) = delete;

	void arm();
	// Bytes written to stdout since the last call, stdio's buffer included
	// (the trap is emptied), and the first 80 of them with newlines as
	// spaces.
	off_t take(std::string &head);
	void release();

	// Every this many calls, take() reads the file offset even when the
	// mark is intact (see the .cpp); a test's handle on that path.
	static constexpr uint64_t kExactEvery = 4096;
	// The bytes at offset 0 while nothing has been written.
	static const char kMark[16];

private:
	void empty();

	int trap_, saved_;
	unsigned char *window_ = nullptr;  // the file's first page, mapped
	bool armed_ = false;
	uint64_t takes_ = 0;
};

}  // namespace niov::fuzz
