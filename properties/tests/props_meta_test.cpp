// Tests of the property suite itself: it must be able to fail.
//  - Hunt: the unsound policy combinations are found by the property named
//    after the invariant they break, and shrink to a small case whose file
//    replays with that violation (and without it on the sound preset).
//  - Blind: every broken variant plugin fails at least one property (the
//    one its catalogue entry names) within the presubmit budget, and the
//    written case replays as a failure against that plugin.
//  - Regressions: every scenario under corpora/regressions/ replays with no
//    differences and exactly its expected violations.
//  - Gen: generated scenarios survive the file format, and the generators
//    reach the edges they exist for.
#include <algorithm>
#include <filesystem>
#include <set>

#include <rapidcheck.h>

#include "gen_scenario.hpp"
#include "gen_send.hpp"
#include "oracle.hpp"
#include "test_support.hpp"
#include "verdict.hpp"

namespace niov::props {
namespace {

std::set<std::string> violation_ids(const RunReport &r) {
	std::set<std::string> s;
	for (const auto &v : r.model.violations)
		s.insert(v.invariant);
	if (r.impl)
		for (const auto &v : r.impl->violations)
			s.insert(v.invariant);
	return s;
}

std::string joined(const std::set<std::string> &s) {
	std::string out;
	for (const auto &x : s)
		out += (out.empty() ? "" : ",") + x;
	return out.empty() ? "none" : out;
}

// --- Hunt -------------------------------------------------------------------

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
	EXPECT_TRUE(reports(r.model, h.inv)) << o.scenario_file << " replays with " << joined(violation_ids(r));
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

// --- Blind ------------------------------------------------------------------

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
	const std::string first = by_difference ? "diff.model_vs_impl" : must;
	ASSERT_NE(find_property(first), nullptr) << variant.name() << " must be caught by " << must;
	// That property first, then every other.
	std::vector<const Property *> order{find_property(first)};
	for (const auto &p : all_properties())
		if (p.name != first)
			order.push_back(&p);
	RunParams rp = test::env_params();
	rp.tag = variant.name();
	std::optional<Outcome> caught;
	for (const Property *p : order) {
		Outcome o = run_property(*p, lt.target, rp);
		if (!o.passed) {
			caught = std::move(o);
			break;
		}
	}
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

// --- Regressions --------------------------------------------------------------

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
		EXPECT_EQ(joined(violation_ids(r)), joined(want));
		if (sc.expect_bind_err) {
			EXPECT_EQ(RunReport::bind_err(r.model), *sc.expect_bind_err);
		}
	}
}

// --- Gen ----------------------------------------------------------------------

Shape everything() {
	Shape s;
	s.space.overrides = true;
	s.dirs = {Dir::tx, Dir::rx, Dir::zcrx};
	s.max_sends = 4;
	s.tcp_ops = true;
	return s;
}

template <typename T>
T sample(const rc::Gen<T> &g, rc::Random &r, int size = 50) {
	return g(r.split(), size).value();
}

// Sanitizer builds run the generators ~30x slower; the file format still
// gets a few hundred scenarios there, the coverage count only runs in the
// plain build (it measures the generators, not the code under test).
constexpr int kRoundTrips = NIOV_PROPS_SANITIZED ? 300 : 3000;

TEST(Gen, ScenariosSurviveTheFileFormat) {
	rc::Random r(7);
	for (int i = 0; i < kRoundTrips; ++i) {
		const Scenario sc = sample(gen_scenario(everything()), r);
		const std::string text = serialize_scenario(sc);
		const auto parsed = parse_scenario(text, "gen.scn");
		ASSERT_TRUE(parsed.scenario) << parsed.error.message << "\n" << text;
		ASSERT_EQ(serialize_scenario(*parsed.scenario), text);
		ASSERT_EQ(parsed.scenario->dmabuf_size, sc.dmabuf_size) << text;
		ASSERT_EQ(parsed.scenario->ops.size(), sc.ops.size()) << text;
	}
}

TEST(Gen, ReachesTheEdges) {
	if (NIOV_PROPS_SANITIZED)
		GTEST_SKIP() << "generator coverage is measured in the plain build";
	rc::Random r(11);
	std::set<std::string> seen;
	for (int i = 0; i < 8000; ++i) {
		Shape s = everything();
		s.dirs = {Dir::tx};
		const Scenario sc = sample(gen_scenario(s), r);
		const uint64_t page = sc.cfg.page_size();
		const size_t plus = sc.name.find('+');
		seen.insert("table:" + sc.name.substr(0, plus));
		if (plus != std::string::npos)
			seen.insert("lie:" + sc.name.substr(plus + 1));
		seen.insert("page_shift:" + std::to_string(sc.cfg.page_shift));
		seen.insert("device:" + std::string(name(sc.cfg.device)));
		seen.insert("preset:" + std::string(name(sc.cfg.preset)));
		seen.insert("max_skb_frags:" + std::to_string(sc.cfg.max_skb_frags));
		if (policies_string(sc.cfg.policy) != policies_string(preset_policies(sc.cfg.preset)))
			seen.insert("override");
		const auto b = oracle::bind(sc);
		seen.insert("bind:" + std::string(errno_name(b.err)));
		for (const auto &op : sc.ops) {
			if (op.kind != OpKind::send)
				continue;
			if (op.iov.size() > 1024)
				seen.insert("send:past_uio_maxiov");
			if (op.iov.size() > 1)
				seen.insert("send:multi");
			for (const auto &e : op.iov) {
				const uint64_t end = e.base + e.len;
				if (e.len == 0)
					seen.insert("elem:empty");
				if (end == sc.dmabuf_size && e.len)
					seen.insert("elem:ends_at_dmabuf_end");
				if (end == sc.dmabuf_size + 1)
					seen.insert("elem:one_past_dmabuf_end");
				if (e.base == sc.dmabuf_size)
					seen.insert("elem:starts_at_dmabuf_end");
				if (b.err == 0 && e.base && e.base % (uint64_t{1} << b.shift) == 0)
					seen.insert("elem:starts_at_niov_boundary");
				if (b.err == 0 && (e.base + 1) % (uint64_t{1} << b.shift) == 0)
					seen.insert("elem:starts_one_before_niov_boundary");
				if (e.len > sc.cfg.size_goal && e.len < UINT32_MAX)
					seen.insert("elem:larger_than_skb");
				for (uint64_t v : {uint64_t{UINT32_MAX}, uint64_t{INT32_MAX}, page - 1, page + 1,
						   uint64_t{1} << 21, (uint64_t{1} << 21) + 1, UINT64_MAX})
					if (e.len == v)
						seen.insert("len:" + std::to_string(v == page - 1   ? 1
										    : v == page + 1 ? 2
												    : v));
			}
		}
	}
	std::vector<std::string> want{"send:past_uio_maxiov", "send:multi", "elem:empty", "elem:ends_at_dmabuf_end",
				      "elem:one_past_dmabuf_end", "elem:starts_at_dmabuf_end",
				      "elem:starts_at_niov_boundary", "elem:starts_one_before_niov_boundary",
				      "elem:larger_than_skb", "override", "page_shift:12", "page_shift:14",
				      "page_shift:16", "max_skb_frags:17", "max_skb_frags:45", "bind:0", "bind:-EINVAL",
				      "bind:-E2BIG", "bind:-ENOMEM", "len:4294967295", "len:2147483647", "len:1",
				      "len:2", "len:2097152", "len:2097153", "len:18446744073709551615"};
	for (auto e : {"udmabuf", "hugetlb", "mixed", "gpu", "coalesced"})
		want.push_back(std::string("table:") + e);
	for (Lie l : all_lies())
		want.push_back("lie:" + std::string(name(l)));
	for (auto d : {"none", "mlx5", "gve", "fbnic", "bnxt"})
		want.push_back(std::string("device:") + d);
	for (auto p : {"baseline", "net-next", "tx-autosize"})
		want.push_back(std::string("preset:") + p);
	for (const auto &w : want)
		EXPECT_TRUE(seen.count(w)) << "never generated: " << w;
}

}  // namespace
}  // namespace niov::props
