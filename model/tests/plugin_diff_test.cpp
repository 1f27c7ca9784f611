// The kernel-shaped plugins agree with the model on every shipped scenario of
// their preset, and every broken variant is caught by the invariant it
// declares (s2n-style negative tests: the suite must not go blind).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "findings.hpp"
#include "lockstep_impl.hpp"
#include "plugin.hpp"
#include "report.hpp"
#include "test_scenarios.hpp"

namespace niov {
namespace {

struct PluginEntry {
	std::string kind;  // kernel | broken
	std::string path;
};

std::vector<PluginEntry> plugins() {
	std::vector<PluginEntry> out;
	std::ifstream f(NIOV_PLUGINS_LIST);
	std::string line;
	while (std::getline(f, line)) {
		std::istringstream is(line);
		PluginEntry e;
		std::string target;
		if (is >> e.kind >> target >> e.path)
			out.push_back(e);
	}
	return out;
}

std::vector<Scenario> corpus() {
	std::vector<std::string> files;
	for (const auto &e : std::filesystem::directory_iterator(NIOV_CORPUS_DIR))
		if (e.path().extension() == ".scn")
			files.push_back(e.path().string());
	std::sort(files.begin(), files.end());
	std::vector<Scenario> out;
	for (const auto &f : files) {
		auto r = load_scenario_file(f);
		EXPECT_TRUE(r.scenario) << r.error.message;
		if (r.scenario)
			out.push_back(*r.scenario);
	}
	return out;
}

using test::ids;

// A shipped scenario of @rules that keeps its preset's policies: what a
// plugin of those rules is compared on.
bool of_rules(const Scenario &sc, Preset rules) {
	return sc.cfg.preset == rules && sc.cfg.policy == preset_policies(sc.cfg.preset);
}

TEST(Plugins, ListIsComplete) {
	const auto p = plugins();
	EXPECT_EQ(std::count_if(p.begin(), p.end(), [](auto &e) { return e.kind == "kernel"; }), 5);
	EXPECT_GE(std::count_if(p.begin(), p.end(), [](auto &e) { return e.kind == "broken"; }), 16);
}

TEST(Plugins, KernelShapedPluginsAgreeWithTheModel) {
	const auto scenarios = corpus();
	for (const auto &e : plugins()) {
		if (e.kind != "kernel")
			continue;
		PluginImpl impl(e.path);
		unsigned compared = 0;
		for (const auto &sc : scenarios) {
			if (!of_rules(sc, plugin_rules(impl)))
				continue;
			const RunReport r = run_scenario(sc, &impl);
			++compared;
			ASSERT_TRUE(r.impl);
			for (const auto &d : r.differences)
				ADD_FAILURE() << impl.name() << " on " << sc.name << " step " << d.step << ": "
					      << d.what << ": model " << d.model << " / impl " << d.impl;
			// The model keeps no resources: res.* come from the plugin alone,
			// and only where the scenario explains them.
			auto impl_ids = ids(*r.impl);
			std::erase_if(impl_ids, [&](const std::string &v) {
				return v.rfind("res.", 0) == 0 && is_known_finding(sc, v);
			});
			EXPECT_EQ(ids(r.model), impl_ids) << impl.name() << " on " << sc.name;
		}
		EXPECT_GT(compared, 0u) << "no shipped scenario uses the rules of " << impl.name();
	}
}

TEST(Plugins, EveryBrokenVariantIsCaughtByItsInvariant) {
	const auto scenarios = corpus();
	unsigned variants = 0;
	for (const auto &e : plugins()) {
		if (e.kind != "broken")
			continue;
		++variants;
		PluginImpl impl(e.path);
		ASSERT_FALSE(impl.must_catch().empty()) << e.path;
		bool caught = false;
		for (const auto &sc : scenarios) {
			if (!of_rules(sc, Preset::tx_autosize))
				continue;
			const RunReport r = run_scenario(sc, &impl);
			const auto got = ids(*r.impl);
			// "difference": the slip shows only against the model.
			if (impl.must_catch() == "difference")
				caught |= !r.differences.empty();
			else
				caught |= std::find(got.begin(), got.end(), impl.must_catch()) != got.end();
		}
		EXPECT_TRUE(caught) << impl.name() << " (" << impl.description() << ") survives: "
				    << impl.must_catch() << " never fired";
	}
	EXPECT_GE(variants, 16u);
}

// Every plugin on the shipped scenarios of its rules: a kernel-shaped one
// on its own preset's, a broken variant on tx-autosize's.
template <class Visit>
void each_plugin_on_its_scenarios(const std::vector<Scenario> &scenarios, Visit &&visit) {
	for (const auto &e : plugins()) {
		PluginImpl impl(e.path);
		const Preset rules = e.kind == "kernel" ? plugin_rules(impl) : Preset::tx_autosize;
		for (const auto &sc : scenarios)
			if (of_rules(sc, rules))
				visit(impl, sc);
	}
}

// Compared by digest (RunOptions::digest_skbs, the fuzz harness's way), a
// send's frags differ from the model's exactly where they do compared frag
// by frag: every kernel-shaped plugin on its own rules' scenarios, every
// broken variant on tx-autosize's, step by step (where the skb counts agree;
// where they do not, that difference is the one both report).  A field left
// out of the digest shows as a step whose frags differ and whose digests
// do not.
std::set<uint32_t> steps_where(const std::vector<Difference> &ds, bool (*pick)(const std::string &)) {
	std::set<uint32_t> out;
	for (const auto &d : ds)
		if (pick(d.field))
			out.insert(d.step);
	return out;
}

TEST(Plugins, DigestsDifferWhereFragsDiffer) {
	const auto scenarios = corpus();
	RunOptions digest;
	digest.record_skbs = false;
	digest.digest_skbs = true;
	const auto frag_field = [](const std::string &f) { return f.rfind("frag.", 0) == 0 || f == "skb.frags"; };
	const auto digest_field = [](const std::string &f) { return f == "send.digest"; };
	const auto count_field = [](const std::string &f) { return f == "send.skbs"; };
	unsigned steps = 0;
	each_plugin_on_its_scenarios(scenarios, [&](PluginImpl &impl, const Scenario &sc) {
		const RunReport full = run_scenario(sc, &impl);
		const RunReport by_digest = run_scenario(sc, &impl, digest);
		auto frags = steps_where(full.differences, frag_field);
		auto digests = steps_where(by_digest.differences, digest_field);
		for (uint32_t k : steps_where(full.differences, count_field)) {
			frags.erase(k);
			digests.erase(k);
		}
		EXPECT_EQ(frags, digests) << impl.name() << " on " << sc.name;
		steps += static_cast<unsigned>(frags.size());
	});
	EXPECT_GT(steps, 0u);  // some variant's frags differ, so the comparison ran
}

// The fuzz harness runs the model unchecked beside a plugin (RunOptions::
// check): checks must change no output of a run, and where the unchecked
// model's outputs and a plugin's agree, every invariant the checked model
// would report is among the plugin's.  A check that read something the
// comparison does not (model state, an input the plugin never sees) fails
// here.
TEST(Plugins, AnUncheckedModelRunLosesNoFindingWhereTheRunsAgree) {
	const auto scenarios = corpus();
	RunOptions checked;
	checked.record_skbs = false;
	checked.digest_skbs = true;
	RunOptions unchecked = checked;
	unchecked.check = false;
	std::set<std::string> silenced;
	for (const auto &sc : scenarios) {
		ModelImpl judged, recorded;
		const Trace m = trace_scenario(sc, judged, checked);
		const Trace u = trace_scenario(sc, recorded, unchecked);
		EXPECT_TRUE(u.violations.empty()) << sc.name << ": " << u.violations.front().invariant;
		EXPECT_TRUE(diff_traces(m, u).empty()) << sc.name << ": the checks changed an output";
		for (const auto &id : ids(m))
			silenced.insert(id);
	}
	// Findings of every kind were there to silence: bind, lookup, RX,
	// device and TCP.
	for (const char *id : {"bind.niov_count", "lookup.byte_map", "rx.alloc_byte_map", "dev.desc_len_exact",
			       "tcp.wmem_nonneg"})
		EXPECT_TRUE(silenced.count(id)) << id << " fires on no shipped scenario";
	unsigned agreeing_with_findings = 0;
	each_plugin_on_its_scenarios(scenarios, [&](PluginImpl &impl, const Scenario &sc) {
		ModelImpl judged, recorded;
		const Trace m = trace_scenario(sc, judged, checked);
		const Trace u = trace_scenario(sc, recorded, unchecked);
		const Trace i = trace_scenario(sc, impl, checked);
		if (!diff_traces(u, i).empty())
			return;
		const auto got = ids(i);
		for (const auto &id : ids(m))
			EXPECT_TRUE(std::count(got.begin(), got.end(), id))
				<< impl.name() << " on " << sc.name << ": the model finds " << id
				<< ", the plugin's run that agrees with it does not";
		agreeing_with_findings += !m.violations.empty();
	});
	EXPECT_GT(agreeing_with_findings, 0u);  // known findings of an era: the subset test had work
}

// The fuzz harness runs a plugin in lockstep with the model (LockstepImpl)
// and runs the model alone only where an answer differed.  Sound only if
// equal answers give equal traces: wherever the lockstep saw no
// difference, the model alone and the plugin alone do not differ either;
// and the lockstep's run is the plugin's, findings and all.
struct LockstepCount {
	unsigned differing = 0;	 // pairs whose traces differ
	unsigned missed = 0;	 // of them, the lockstep saw no difference
};

template <class Lockstep>
LockstepCount lockstep_on_every_plugin(const std::vector<Scenario> &scenarios) {
	RunOptions opts;
	opts.record_skbs = false;
	opts.digest_skbs = true;
	RunOptions unchecked = opts;
	unchecked.check = false;
	LockstepCount n;
	each_plugin_on_its_scenarios(scenarios, [&](PluginImpl &impl, const Scenario &sc) {
		ModelImpl shadow, alone;
		Lockstep lockstep(impl, shadow);
		const Trace l = trace_scenario(sc, lockstep, opts);
		const Trace i = trace_scenario(sc, impl, opts);
		EXPECT_TRUE(diff_traces(i, l).empty()) << impl.name() << " on " << sc.name << ": the lockstep changed an output";
		EXPECT_EQ(ids(i), ids(l)) << impl.name() << " on " << sc.name;
		if (diff_traces(trace_scenario(sc, alone, unchecked), i).empty())
			return;
		++n.differing;
		n.missed += !lockstep.diverged();
	});
	return n;
}

TEST(Plugins, ALockstepThatSeesNoDifferenceMissesNone) {
	const LockstepCount n = lockstep_on_every_plugin<LockstepImpl>(corpus());
	EXPECT_EQ(n.missed, 0u);
	EXPECT_GT(n.differing, 0u);  // the broken variants differ: the test had work
}

// Negative: a lockstep blind to the fills (the primary alone fills) misses
// the differences of the variants whose frags are wrong.
class FillBlindLockstep final : public Impl {
public:
	FillBlindLockstep(Impl &primary, Impl &shadow) : primary_(primary), inner_(primary, shadow) {}
	bool diverged() const { return inner_.diverged(); }
	std::string name() const override { return inner_.name(); }
	uint32_t caps() const override { return inner_.caps(); }
	BindResult bind(const Scenario &sc) override { return inner_.bind(sc); }
	void unbind() override { inner_.unbind(); }
	std::optional<uint64_t> niov_dma(uint64_t idx) const override { return inner_.niov_dma(idx); }
	LookupResult lookup(uint64_t virt) const override { return inner_.lookup(virt); }
	int fill(niov_skb &skb, IovIter &it, int32_t length) override { return primary_.fill(skb, it, length); }
	std::optional<int> pp_init(unsigned order) override { return inner_.pp_init(order); }
	std::optional<int> zcrx_validate(const Scenario &sc, uint32_t len, unsigned shift) override {
		return inner_.zcrx_validate(sc, len, shift);
	}
	std::optional<int> encode_tx_desc(uint32_t len, std::vector<uint32_t> &lens) override {
		return inner_.encode_tx_desc(len, lens);
	}
	void frag_release(const Frag &f) override { inner_.frag_release(f); }
	bool takes_frag_refs() const override { return inner_.takes_frag_refs(); }
	std::optional<niov_resources> resources() const override { return inner_.resources(); }
	std::optional<RxAllocResult> rx_alloc() override { return inner_.rx_alloc(); }
	void rx_free(uint64_t idx) override { inner_.rx_free(idx); }

private:
	Impl &primary_;
	LockstepImpl inner_;
};

TEST(Plugins, ALockstepBlindToFillsIsCaught) {
	EXPECT_GT(lockstep_on_every_plugin<FillBlindLockstep>(corpus()).missed, 0u);
}

// A run the work budget stops (LimitError, mid-send) still gives back the
// frags it took and unbinds: the fuzz harness goes on to the next input in
// the same process, whose resource check (res.no_leak) compares the
// counters before its bind with those after its unbind.  A run that left
// its binding behind showed as a leak of the next input (a campaign's
// false alarm).
TEST(Plugins, ARunStoppedByItsBudgetGivesBackWhatItTook) {
	const auto parsed = parse_scenario("rules tx-autosize\nsg 0x40000000 2M\nsend 0+1M\nsend 0+1M\nfree\n", "budget");
	ASSERT_TRUE(parsed.scenario) << parsed.error.message;
	unsigned checked = 0;
	for (const auto &e : plugins()) {
		PluginImpl impl(e.path);
		if (e.kind != "kernel" || plugin_rules(impl) != Preset::tx_autosize || !impl.resources())
			continue;
		RunOptions opts;
		opts.max_frags = 2;  // the first send's frags are past it
		const auto before = impl.resources();
		EXPECT_THROW(trace_scenario(*parsed.scenario, impl, opts), LimitError);
		const auto after = impl.resources();
		EXPECT_EQ(before->allocs, after->allocs) << impl.name();
		EXPECT_EQ(before->dmabuf_refs, after->dmabuf_refs) << impl.name();
		EXPECT_EQ(before->niov_refs, after->niov_refs) << impl.name();
		EXPECT_EQ(before->warns, after->warns) << impl.name();  // no unbind with frags out
		++checked;
	}
	EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace niov
