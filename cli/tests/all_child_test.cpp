// run_in_child, which every piece of `niovcheck all` runs through: each way
// a child can end is told apart, and a child past its time is killed.
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "all_child.hpp"

namespace niov::cli {
namespace {

class AllChild : public ::testing::Test {
protected:
	void SetUp() override {
		dir_ = std::filesystem::temp_directory_path() / ("all_child_test." + std::to_string(getpid()));
	}
	void TearDown() override { std::filesystem::remove_all(dir_); }
	std::string dir() const { return dir_.string(); }

private:
	std::filesystem::path dir_;
};

TEST_F(AllChild, ResultAndLogComeBack) {
	const ChildOutcome o = run_in_child(
		[](const Progress &p) {
			p.at("step one");
			std::printf("said by the child\n");
			return nlohmann::json{{"answer", 42}};
		},
		60, dir(), "ok");
	ASSERT_TRUE(o.completed) << o.log;
	EXPECT_EQ(o.result.value("answer", 0), 42);
	EXPECT_FALSE(o.timed_out);
	EXPECT_EQ(o.progress, "step one");
	EXPECT_NE(o.log.find("said by the child"), std::string::npos) << o.log;
}

TEST_F(AllChild, SignalIsNamed) {
	const ChildOutcome o = run_in_child(
		[](const Progress &) -> nlohmann::json {
			raise(SIGKILL);  // not SIGSEGV: ASan would catch that and exit
			return {};
		},
		60, dir(), "segv");
	EXPECT_FALSE(o.completed);
	EXPECT_FALSE(o.timed_out);
	EXPECT_EQ(o.signal, SIGKILL);
}

TEST_F(AllChild, ExitWithoutResult) {
	const ChildOutcome o = run_in_child([](const Progress &) -> nlohmann::json { _exit(7); }, 60, dir(), "exit");
	EXPECT_FALSE(o.completed);
	EXPECT_EQ(o.exit_code, 7);
}

// The waiting must still end at the deadline: a child that would sleep for
// a minute is killed after its one second and reported as timed out.
TEST_F(AllChild, PastItsTimeIsKilled) {
	const ChildOutcome o = run_in_child(
		[](const Progress &p) {
			p.at("sleeping");
			sleep(60);
			return nlohmann::json{{"woke", true}};
		},
		1, dir(), "sleepy");
	EXPECT_TRUE(o.timed_out);
	EXPECT_FALSE(o.completed);
	EXPECT_EQ(o.progress, "sleeping");
	EXPECT_LT(o.seconds, 30.0);
}

}  // namespace
}  // namespace niov::cli
