// The fuzz harness's stdout trap: whatever reaches stdout while it is armed,
// through stdio or a bare write(2), is counted and shown once, and nothing
// is reported where nothing was written.  Each test releases the trap before
// its assertions: gtest prints its failures on stdout.
#include "stdout_trap.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace niov::fuzz {
namespace {

struct Taken {
	off_t n;
	std::string head;
};

template <class Write>
Taken write_then_take(StdoutTrap &trap, Write write) {
	trap.arm();
	write();
	Taken t{};
	t.n = trap.take(t.head);
	trap.release();
	return t;
}

TEST(StdoutTrap, NothingWrittenIsNothingTaken) {
	StdoutTrap trap;
	for (int i = 0; i < 3; ++i) {
		const Taken t = write_then_take(trap, [] {});
		EXPECT_EQ(t.n, 0);
	}
}

TEST(StdoutTrap, StdioBytesStillBufferedAreTaken) {
	StdoutTrap trap;
	const Taken t = write_then_take(trap, [] { std::printf("hello\nworld"); });
	EXPECT_EQ(t.n, 11);
	EXPECT_EQ(t.head, "hello world");
}

TEST(StdoutTrap, ABareWriteIsTaken) {
	StdoutTrap trap;
	const Taken t = write_then_take(trap, [] { EXPECT_EQ(write(STDOUT_FILENO, "x", 1), 1); });
	EXPECT_EQ(t.n, 1);
	EXPECT_EQ(t.head, "x");
}

TEST(StdoutTrap, TakingEmptiesTheTrap) {
	StdoutTrap trap;
	trap.arm();
	std::printf("first");
	std::string head;
	const off_t first = trap.take(head);
	const off_t again = trap.take(head);
	std::printf("ab");
	const off_t second = trap.take(head);
	trap.release();
	EXPECT_EQ(first, 5);
	EXPECT_EQ(again, 0);
	EXPECT_EQ(second, 2);
	EXPECT_EQ(head, "ab");
}

TEST(StdoutTrap, MoreThanAPageIsCountedWhole) {
	StdoutTrap trap;
	const std::string big(10000, 'y');
	const Taken t = write_then_take(trap, [&] { std::fwrite(big.data(), 1, big.size(), stdout); });
	EXPECT_EQ(t.n, 10000);
	EXPECT_EQ(t.head, std::string(80, 'y'));
	const Taken after = write_then_take(trap, [] { std::printf("z"); });
	EXPECT_EQ(after.n, 1);
	EXPECT_EQ(after.head, "z");
}

// The one write the mark cannot show: its own bytes.  The exact look every
// kExactEvery calls must still report it.
TEST(StdoutTrap, AWriteOfTheMarkItselfIsStillReported) {
	StdoutTrap trap;
	trap.arm();
	ASSERT_EQ(write(STDOUT_FILENO, StdoutTrap::kMark, sizeof(StdoutTrap::kMark)),
		  static_cast<ssize_t>(sizeof(StdoutTrap::kMark)));
	std::string head;
	off_t n = 0;
	uint64_t calls = 0;
	while (n == 0 && calls < 2 * StdoutTrap::kExactEvery) {
		n = trap.take(head);
		++calls;
	}
	trap.release();
	EXPECT_EQ(n, static_cast<off_t>(sizeof(StdoutTrap::kMark)));
	EXPECT_LE(calls, StdoutTrap::kExactEvery);
}

}  // namespace
}  // namespace niov::fuzz
