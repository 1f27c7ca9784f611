// run_in_child, which every piece of `niovcheck all` runs through: each way
// a child can end is told apart, and a child past its time is killed.
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "all_child.hpp"
#include "breadcrumb.hpp"
#include "plugin_fault.hpp"

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
		{60, 0}, dir(), "ok");
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
		{60, 0}, dir(), "segv");
	EXPECT_FALSE(o.completed);
	EXPECT_FALSE(o.timed_out);
	EXPECT_EQ(o.signal, SIGKILL);
}

TEST_F(AllChild, ExitWithoutResult) {
	const ChildOutcome o = run_in_child([](const Progress &) -> nlohmann::json { _exit(7); }, {60, 0}, dir(), "exit");
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
		{1, 0}, dir(), "sleepy");
	EXPECT_TRUE(o.timed_out);
	EXPECT_FALSE(o.completed);
	EXPECT_EQ(o.progress, "sleeping");
	EXPECT_LT(o.seconds, 30.0);
}

// A plugin call that does not return ends the child after the per-call
// limit, not the child's whole time, and says which call it was.
TEST_F(AllChild, HungPluginCallIsEndedAtItsLimit) {
	const ChildOutcome o = run_in_child(
		[](const Progress &p) {
			p.at("scenario x.scn");
			const OpScope in_fill(PluginOp::fill, 1, "hung.so");
			sleep(60);
			return nlohmann::json{};
		},
		{60, 1}, dir(), "hung");
	EXPECT_TRUE(o.hung_call);
	EXPECT_FALSE(o.timed_out);
	EXPECT_EQ(o.op, "fill");
	EXPECT_EQ(o.progress, "scenario x.scn");
	EXPECT_LT(o.seconds, 20.0);
}

// A breach of the ABI's contract is the plugin's; any other exception is ours.
TEST_F(AllChild, PluginFaultAndOurErrorAreToldApart) {
	const ChildOutcome f = run_in_child(
		[](const Progress &) -> nlohmann::json { throw PluginFault("abi.null_binding", "bind", "no binding"); },
		{60, 0}, dir(), "fault");
	EXPECT_FALSE(f.completed);
	EXPECT_EQ(f.fault_id, "abi.null_binding");
	EXPECT_EQ(f.fault, "no binding");
	EXPECT_TRUE(f.error.empty());
	const ChildOutcome e = run_in_child(
		[](const Progress &) -> nlohmann::json { throw std::runtime_error("disk full"); }, {60, 0}, dir(), "ours");
	EXPECT_FALSE(e.completed);
	EXPECT_EQ(e.error, "disk full");
}

// The result comes through a pipe: one larger than the pipe's buffer must
// arrive whole (the parent reads while the child writes).
TEST_F(AllChild, LargeResultArrivesWhole) {
	const ChildOutcome o = run_in_child(
		[](const Progress &) { return nlohmann::json{{"big", std::string(1 << 20, 'x')}}; }, {60, 0}, dir(), "big");
	ASSERT_TRUE(o.completed);
	EXPECT_EQ(o.result.value("big", "").size(), size_t{1} << 20);
}

}  // namespace
}  // namespace niov::cli
