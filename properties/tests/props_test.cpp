// Every property of the set, one test each (ctest: presubmit.* and
// nightly.*, the case count from $NIOV_PROPS_CASES), plus the check that no
// invariant id is left without a property.
#include <cstdio>

#include "invariants.hpp"
#include "test_support.hpp"

namespace niov::props {
namespace {

std::vector<std::string> names() {
	std::vector<std::string> v;
	for (const auto &p : all_properties())
		v.push_back(p.name);
	return v;
}

class Property : public ::testing::TestWithParam<std::string> {};

TEST_P(Property, Holds) {
	const auto *p = find_property(GetParam());
	ASSERT_NE(p, nullptr);
	const RunParams rp = test::env_params();
	const Outcome o = run_property(*p, test::default_target(), rp);
	std::printf("%-28s %8llu cases %7.2f s %9.0f cases/s (cpu %.2f s, %.0f cases/s)\n", o.name.c_str(),
		    static_cast<unsigned long long>(o.cases), o.seconds, o.rate(), o.cpu_seconds, o.cpu_rate());
	if (!o.not_run.empty())
		ADD_FAILURE() << o.name << " not run against the default target: " << o.not_run;
	else if (!o.passed)
		ADD_FAILURE() << failure_text(o);
	else
		EXPECT_EQ(o.cases, rp.cases);
}

INSTANTIATE_TEST_SUITE_P(P, Property, ::testing::ValuesIn(names()),
			 [](const auto &pi) { return test::param_name(pi.param); });

// A new invariant without a property would leave the suite blind to it.
TEST(Coverage, EveryInvariantHasAProperty) {
	for (const auto &i : kInvariants)
		EXPECT_NE(find_property(i.id), nullptr) << "no property checks " << i.id;
	EXPECT_NE(find_property("diff.model_vs_impl"), nullptr);
}

}  // namespace
}  // namespace niov::props
