// s2n-style negative tests: every broken variant plugin listed in
// build/lib/niov_plugins.txt fails the property its catalogue entry names
// (plugins/broken/CATALOGUE.md; "difference" = diff.model_vs_impl) within
// the presubmit budget, and the written case replays as a failure against
// that plugin, so the suite cannot silently go blind.
#include <filesystem>

#include "test_support.hpp"

namespace niov::props {
namespace {

std::vector<std::string> broken_plugins() {
	std::vector<std::string> v;
	for (const auto &e : read_plugin_list(NIOV_PLUGINS_LIST))
		if (e.kind == "broken")
			v.push_back(e.path);
	return v;
}

TEST(Blind, EveryCataloguedVariantIsListed) { EXPECT_GE(broken_plugins().size(), 4u); }

class Blind : public ::testing::TestWithParam<std::string> {};

TEST_P(Blind, VariantFailsAProperty) {
	LoadedTarget lt = load_target(GetParam(), NIOV_PLUGINS_LIST);
	PluginImpl &variant = *lt.plugins.front();
	// The catalogue names the invariant that must catch the slip, or
	// "difference" for slips only the model-vs-plugin comparison sees.
	const std::string must = variant.must_catch();
	const bool by_difference = must == "difference";
	const std::string first = property_for(must);
	ASSERT_NE(find_property(first), nullptr) << variant.name() << " must be caught by " << must;
	RunParams rp = test::env_params();
	rp.tag = variant.name();
	double seconds = 0;
	const std::optional<Outcome> caught = first_failure(lt.target, first, rp, seconds);
	ASSERT_TRUE(caught) << variant.name() << " (" << variant.description() << ") passes every property";
	std::printf("%s caught by %s after %llu cases\n%s", variant.name().c_str(), caught->name.c_str(),
		    static_cast<unsigned long long>(caught->cases), failure_text(*caught).c_str());
	EXPECT_EQ(caught->name, first) << "caught, but not by the property of " << must;
	if (by_difference) {
		EXPECT_NE(caught->description.find("differ"), std::string::npos) << caught->description;
	}
	// The written case shows the slip on replay against the variant, and
	// the sound plugin of the preset gets through it.
	ASSERT_TRUE(caught->failed);
	EXPECT_EQ(caught->failed->impl_path, GetParam());
	auto parsed = load_scenario_file(caught->scenario_file);
	ASSERT_TRUE(parsed.scenario) << parsed.error.message;
	const RunReport bad = run_scenario(*parsed.scenario, &variant);
	EXPECT_FALSE(bad.clean()) << caught->scenario_file << " replays clean against " << variant.name();
	const auto &kernel = test::default_target();
	if (Impl *sound = kernel.impl_for(*parsed.scenario)) {
		const RunReport good = run_scenario(*parsed.scenario, sound);
		EXPECT_TRUE(good.differences.empty()) << caught->scenario_file << " differs with " << sound->name();
	}
}

INSTANTIATE_TEST_SUITE_P(Variant, Blind, ::testing::ValuesIn(broken_plugins()), [](const auto &pi) {
	return test::param_name(std::filesystem::path(pi.param).stem().string());
});

}  // namespace
}  // namespace niov::props
