#include "stdout_trap.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace niov::fuzz {

namespace {

constexpr size_t kWindow = 4096;

}  // namespace

// Starts with a NUL: no text a plugin prints begins with these bytes.
const char StdoutTrap::kMark[16] = {'\0', 'n', 'i', 'o', 'v', 'c', 'h', 'e', 'c', 'k', '-', 'm', 'a', 'r', 'k', '\0'};

// Asking the kernel for the file offset on every input was a syscall per
// plugin run (llseek, its fdget and the VM's exit: about 7 % of a send
// input beside a plugin on this machine).  Stdout writes at the trap's
// offset, which empty() puts at 0, so any write overwrites the mark at the
// start of the file, and the mapped first page shows it without a call.
StdoutTrap::StdoutTrap() : trap_(memfd_create("niovcheck-plugin-stdout", 0)), saved_(dup(STDOUT_FILENO)) {
	if (trap_ < 0 || ftruncate(trap_, kWindow) != 0)
		return;
	void *w = mmap(nullptr, kWindow, PROT_READ | PROT_WRITE, MAP_SHARED, trap_, 0);
	if (w != MAP_FAILED)
		window_ = static_cast<unsigned char *>(w);
}

void StdoutTrap::arm() {
	if (armed_ || trap_ < 0 || saved_ < 0)
		return;
	std::fflush(stdout);
	armed_ = dup2(trap_, STDOUT_FILENO) >= 0;
	if (armed_)
		empty();
}

off_t StdoutTrap::take(std::string &head) {
	if (!armed_)
		return 0;
	std::fflush(stdout);  // no call at all while stdio's buffer is empty
	// A write that begins with the mark's own bytes leaves it as it was:
	// the exact look every kExactEvery calls still reports it.
	if (window_ && std::memcmp(window_, kMark, sizeof(kMark)) == 0 && ++takes_ % kExactEvery != 0)
		return 0;
	const off_t n = lseek(trap_, 0, SEEK_CUR);
	if (n <= 0)
		return 0;
	head.resize(n < 80 ? static_cast<size_t>(n) : 80);  // the file is a page long: its mark and zeros follow
	const ssize_t got = pread(trap_, head.data(), head.size(), 0);
	head.resize(got > 0 ? static_cast<size_t>(got) : 0);
	for (char &c : head)
		if (c == '\n')
			c = ' ';
	empty();
	return n;
}

// Drops what was written and puts the mark back at offset 0.
void StdoutTrap::empty() {
	const bool ok = ftruncate(trap_, 0) == 0 && lseek(trap_, 0, SEEK_SET) == 0 &&
			(!window_ || ftruncate(trap_, kWindow) == 0);
	if (!ok) {
		release();  // cannot be emptied: stop trapping rather than report old bytes again
		return;
	}
	if (window_)
		std::memcpy(window_, kMark, sizeof(kMark));
}

void StdoutTrap::release() {
	if (!armed_)
		return;
	std::fflush(stdout);
	dup2(saved_, STDOUT_FILENO);
	armed_ = false;
}

}  // namespace niov::fuzz
