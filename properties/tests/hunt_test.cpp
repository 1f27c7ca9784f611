// The unsound policy combinations are found: each is hunted by the property
// named after the invariant it breaks, with the policies forced, and must
// shrink to a small case whose file replays with that violation (and
// without it on the sound preset).
#include "test_support.hpp"
#include "verdict.hpp"

namespace niov::props {
namespace {

struct HuntCase {
	const char *what;
	const char *policy;  // overrides of tx-autosize
	std::vector<Device> devices;
	Inv inv;
};

const std::vector<HuntCase> &hunts() {
	static const std::vector<HuntCase> v{
		{"truesize_page_2M", "truesize=page", {}, Inv::tcp_truesize_covers_bytes},
		{"lookup_page_large_niovs", "lookup=page", {}, Inv::lookup_byte_map},
		{"no_max_frag_bnxt", "max_frag=none", {Device::bnxt}, Inv::dev_desc_len_exact},
		{"size_without_addr", "tx_niov=auto-noaddr bind=genpool", {}, Inv::sizing_aligns_segments},
	};
	return v;
}

class Hunt : public ::testing::TestWithParam<HuntCase> {};

TEST_P(Hunt, UnsoundCombinationIsFound) {
	const HuntCase &h = GetParam();
	Target t;
	t.space.presets = {Preset::tx_autosize};
	Policies pol = preset_policies(Preset::tx_autosize);
	std::string spec = h.policy;
	for (size_t at = 0; at < spec.size();) {
		const size_t end = std::min(spec.find(' ', at), spec.size());
		const std::string kv = spec.substr(at, end - at);
		const size_t eq = kv.find('=');
		ASSERT_TRUE(apply_policy(pol, kv.substr(0, eq), kv.substr(eq + 1))) << kv;
		at = end + 1;
	}
	t.space.forced = pol;
	if (!h.devices.empty())
		t.space.devices = h.devices;
	RunParams rp = test::env_params();
	rp.tag = std::string("hunt-") + h.what;
	const Outcome o = run_property(*find_property(id(h.inv)), t, rp);
	ASSERT_FALSE(o.passed) << "policy " << h.policy << " survived " << o.cases << " cases of " << id(h.inv);
	std::printf("%s", failure_text(o).c_str());
	EXPECT_FALSE(o.message.empty());
	ASSERT_FALSE(o.reproduce.empty());
	ASSERT_TRUE(o.failed);
	// The written case replays with the violation...
	auto parsed = load_scenario_file(o.scenario_file);
	ASSERT_TRUE(parsed.scenario) << parsed.error.message;
	const Scenario &sc = *parsed.scenario;
	EXPECT_TRUE(sc.cfg.policy == pol) << policies_string(sc.cfg.policy);
	const RunReport r = run_scenario(sc, nullptr);
	EXPECT_TRUE(reports(r.model, h.inv))
		<< o.scenario_file << " replays with " << test::joined(test::violation_ids(r));
	// ... shrunk small enough to read ...
	EXPECT_LE(sc.segs.size(), 4u) << o.scenario_file;
	EXPECT_LE(sc.ops.size(), 4u) << o.scenario_file;
	for (const auto &op : sc.ops)
		EXPECT_LE(op.iov.size(), 2u) << o.scenario_file;
	// ... and the sound preset does not break it on the same inputs.
	Scenario sound = sc;
	sound.cfg.policy = preset_policies(Preset::tx_autosize);
	EXPECT_FALSE(reports(run_scenario(sound, nullptr).model, h.inv)) << o.scenario_file;
}

INSTANTIATE_TEST_SUITE_P(Unsound, Hunt, ::testing::ValuesIn(hunts()),
			 [](const auto &pi) { return std::string(pi.param.what); });

}  // namespace
}  // namespace niov::props
