// Every scenario under corpora/regressions/ replays with no model-vs-plugin
// difference (the kernel-shaped plugin of its preset answers) and exactly
// the violations and bind result its expect lines name.
#include <algorithm>
#include <filesystem>

#include "test_support.hpp"

namespace niov::props {
namespace {

TEST(Regressions, EveryScenarioReplaysAsExpected) {
	namespace fs = std::filesystem;
	std::vector<std::string> files;
	for (const auto &e : fs::directory_iterator(NIOV_REGRESSIONS_DIR))
		if (e.path().extension() == ".scn")
			files.push_back(e.path().string());
	std::sort(files.begin(), files.end());
	ASSERT_GE(files.size(), 2u) << "corpora/regressions/ holds no scenarios";
	const Target &kernel = test::default_target();
	for (const auto &f : files) {
		SCOPED_TRACE(f);
		auto parsed = load_scenario_file(f);
		ASSERT_TRUE(parsed.scenario) << parsed.error.message;
		const Scenario &sc = *parsed.scenario;
		const RunReport r = run_scenario(sc, kernel.impl_for(sc));
		for (const auto &d : r.differences)
			ADD_FAILURE() << "step " << d.step << ": " << d.what << ": model " << d.model << " / impl "
				      << d.impl;
		const std::set<std::string> want(sc.expect_violations.begin(), sc.expect_violations.end());
		EXPECT_EQ(test::joined(test::violation_ids(r)), test::joined(want));
		if (sc.expect_bind_err) {
			EXPECT_EQ(RunReport::bind_err(r.model), *sc.expect_bind_err);
		}
	}
}

}  // namespace
}  // namespace niov::props
