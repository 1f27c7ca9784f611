// The kernel plugin cache's key (kernel/builder/kernel_plan.hpp): a plan
// that would run the compiler differently is a different entry, whether
// the difference is the tree, the user's $NIOV_KERNEL_CFLAGS or a flag the
// build sets itself.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernel_plan.hpp"

namespace {

using niov::cli::make_plan;
using niov::cli::Plan;
using niov::cli::plan_hash;

Plan fixture_plan() {
	unsetenv("NIOV_KERNEL_CFLAGS");
	return make_plan(std::string(NIOV_SOURCE_DIR) + "/kernel/fixtures/tx-era", false, false, "gcc");
}

TEST(KernelPlan, TheSamePlanGivesTheSameKey) {
	EXPECT_EQ(plan_hash(fixture_plan()), plan_hash(fixture_plan()));
}

TEST(KernelPlan, AFlagTheBuildSetsForEveryUnitIsInTheKey) {
	const Plan p = fixture_plan();
	Plan changed = p;
	ASSERT_FALSE(changed.cflags.empty());
	changed.cflags.push_back("-fno-common");
	EXPECT_NE(plan_hash(changed), plan_hash(p));
	changed = p;
	changed.cflags.front() += "x";
	EXPECT_NE(plan_hash(changed), plan_hash(p));
}

TEST(KernelPlan, AFlagTheBuildSetsBehindTheShimIsInTheKey) {
	const Plan p = fixture_plan();
	Plan changed = p;
	ASSERT_FALSE(changed.kernel_cflags.empty());
	changed.kernel_cflags.pop_back();
	EXPECT_NE(plan_hash(changed), plan_hash(p));
}

TEST(KernelPlan, TheCompilerAndTheUsersFlagsAreInTheKey) {
	const Plan p = fixture_plan();
	Plan cc = p;
	cc.cc = "gcc-12";
	EXPECT_NE(plan_hash(cc), plan_hash(p));
	setenv("NIOV_KERNEL_CFLAGS", "-Wall", 1);
	const Plan with_env = make_plan(p.tree, false, false, "gcc");
	unsetenv("NIOV_KERNEL_CFLAGS");
	EXPECT_NE(plan_hash(with_env), plan_hash(p));
}

}  // namespace
