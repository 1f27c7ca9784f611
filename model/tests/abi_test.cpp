// ABI v2 in the loader and the engines' shared runner: v1 plugins, unknown
// versions, capabilities (not run), not representable, extack, frag
// reference balance, resources, the RX allocator check and the fault sweep.
// Each check is shown to fail on a plugin built to break it.
#include <gtest/gtest.h>

#include <algorithm>

#include "alloc_meter.hpp"
#include "faults.hpp"
#include "findings.hpp"
#include "plugin.hpp"
#include "report.hpp"
#include "test_scenarios.hpp"

namespace niov {
namespace {

std::string lib(const std::string &stem) { return std::string(NIOV_LIB_DIR) + "/libniov_" + stem + ".so"; }

Scenario parse(const std::string &text) { return test::parse(text, "abi.scn"); }

using test::ids;

bool has(const std::vector<std::string> &v, Inv inv) {
	return std::find(v.begin(), v.end(), std::string(id(inv))) != v.end();
}

std::string text(const Trace &t) {
	std::string s;
	for (const auto &v : t.violations)
		s += v.invariant + ": " + v.detail + "\n";
	return s;
}

// A TX run that cuts frags every way TCP does.
const char kTcpRun[] =
	"rules tx-autosize\nsg 0x40000000 2M\nsg 0x80200000 4M\n"
	"send 0x1ff000+0x10000 0x300000+0x8000\nsplit 0x3000\nshift 0x100\nack 0x2100\n"
	"send 0+0 0x10+0x40000\nack 0x500\nfree\nsend 0x1000+0x1000\n";

TEST(Loader, V1PluginLoadsAndIsCheckedAsBefore) {
	PluginImpl v1(lib("v1_tx_autosize"));
	PluginImpl v2(lib("tx_autosize"));
	EXPECT_EQ(v1.abi_version(), 1u);
	EXPECT_EQ(v1.caps(), uint32_t{NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC});
	EXPECT_EQ(v1.rules(), "");
	EXPECT_EQ(plugin_rules(v1), Preset::tx_autosize);
	EXPECT_FALSE(v1.resources().has_value());
	for (const char *t : {kTcpRun, "rules tx-autosize\ndir rx\nrx_buf_size 16K\nsg 0x100000 64K\n",
			      "rules tx-autosize\ndir zcrx\nrx_buf_size 8K\nsg 0x100000 0x3000\n"}) {
		const Scenario sc = parse(t);
		const RunReport a = run_scenario(sc, &v1), b = run_scenario(sc, &v2);
		EXPECT_TRUE(a.differences.empty()) << t;
		EXPECT_EQ(ids(*a.impl), ids(*b.impl)) << t;
		EXPECT_TRUE(a.impl->ran);
		// v1 has no RX allocator: the sweep is not run, and said so.
		if (sc.dir == Dir::rx) {
			ASSERT_EQ(a.impl->not_run.size(), 1u);
			EXPECT_NE(a.impl->not_run[0].find("plugin lacks RX allocator"), std::string::npos);
			EXPECT_EQ(a.verdict(), "partial");
			EXPECT_TRUE(b.impl->rx_alloc.ran);
		}
	}
}

TEST(Loader, UnknownVersionIsOneLine) {
	try {
		PluginImpl p(lib("future_abi"));
		FAIL() << "loaded";
	} catch (const PluginError &e) {
		const std::string m = e.what();
		const std::string want = "plugin ABI version 99, niovcheck takes " +
					 std::to_string(NIOV_IMPL_ABI_MIN_VERSION) + " to " +
					 std::to_string(NIOV_IMPL_ABI_VERSION);
		EXPECT_NE(m.find(want), std::string::npos) << m;
		EXPECT_EQ(m.find('\n'), std::string::npos);
	}
}

TEST(Caps, RxOnlyPluginIsNotRunForWhatItLacks) {
	PluginImpl p(lib("linux_6_12"));
	EXPECT_EQ(plugin_rules(p), Preset::linux_6_12);
	const RunReport tx = run_scenario(parse("rules linux-6.12\nsg 0x100000 64K\nsend 0+4K\n"), &p);
	EXPECT_FALSE(tx.impl->ran);
	ASSERT_EQ(tx.impl->not_run.size(), 1u);
	EXPECT_EQ(tx.impl->not_run[0], "tx bind (plugin lacks TX)");
	EXPECT_TRUE(tx.differences.empty());
	EXPECT_EQ(tx.verdict(), "not run");
	const RunReport attr = run_scenario(parse("rules linux-6.12\ndir rx\nrx_buf_size 4K\nsg 0x100000 64K\n"), &p);
	EXPECT_EQ(attr.impl->not_run.at(0), "rx bind (plugin lacks rx-buf-size)");
	const RunReport z = run_scenario(parse("rules linux-6.12\ndir zcrx\nsg 0x100000 64K\n"), &p);
	EXPECT_EQ(z.impl->not_run.at(0), "zcrx bind (plugin lacks zcrx)");
	// What it has is checked, and agrees with the model.
	const RunReport rx = run_scenario(parse("rules linux-6.12\ndir rx\nsg 0x100000 4M\nsg 0x800000 2M\n"), &p);
	EXPECT_TRUE(rx.impl->ran);
	EXPECT_TRUE(rx.impl->rx_alloc.ran);
	EXPECT_EQ(rx.impl->rx_alloc.rounds[0].handed, 1536u);
	EXPECT_EQ(rx.verdict(), "clean") << text(*rx.impl);
}

TEST(NotRepresentable, IsReportedNeverCompared) {
	PluginImpl p(lib("linux_6_12"));
	const RunReport r = run_scenario(parse("rules linux-6.12\ndir rx\nsg 0x100000 4G\n"), &p);
	EXPECT_TRUE(r.impl->bind.not_representable());
	EXPECT_TRUE(r.not_representable());
	EXPECT_EQ(r.verdict(), "not representable");
	EXPECT_TRUE(r.differences.empty());
	EXPECT_EQ(errno_name(r.impl->bind.err), "not representable");
	EXPECT_EQ(r.model.bind.err, 0);  // the model has no u32 scatterlist
}

TEST(Extack, TheCodesMessageComesBack) {
	PluginImpl p(lib("net_next"));
	const RunReport r = run_scenario(parse("rules net-next\ndir rx\nrx_buf_size 16K\nsg 0x102000 64K\n"), &p);
	EXPECT_EQ(r.impl->bind.err, -kEINVAL);
	EXPECT_EQ(r.impl->bind.extack, "dmabuf sg entry not aligned to niov size");
	EXPECT_TRUE(r.differences.empty());  // shown, not compared
	const RunReport ok = run_scenario(parse("rules net-next\ndir rx\nsg 0x100000 64K\n"), &p);
	EXPECT_EQ(ok.impl->bind.extack, "");
}

TEST(FragRefs, EveryReferenceTheFillTookGoesBack) {
	PluginImpl p(lib("tx_autosize"));
	const RunReport r = run_scenario(parse(kTcpRun), &p);
	ASSERT_TRUE(r.impl->res_before && r.impl->res_after);
	EXPECT_EQ(r.impl->res_after->niov_refs, r.impl->res_before->niov_refs);
	EXPECT_EQ(r.impl->res_after->allocs, r.impl->res_before->allocs);
	EXPECT_TRUE(r.clean()) << text(*r.impl);
	// A socket left with skbs still releases them at close.
	const RunReport open = run_scenario(parse("rules tx-autosize\nsg 0x40000000 2M\nsend 0+0x30000\n"), &p);
	EXPECT_TRUE(open.clean()) << text(*open.impl);

	PluginImpl leak(lib("frag_ref_leak"));
	const RunReport l = run_scenario(parse(kTcpRun), &leak);
	EXPECT_TRUE(has(ids(*l.impl), Inv::res_refs_balanced)) << text(*l.impl);
	EXPECT_FALSE(is_known_finding(parse(kTcpRun), Inv::res_refs_balanced));
}

TEST(RxAlloc, TheAllocatorAgreesWithTheByteMap) {
	PluginImpl p(lib("tx_autosize"));
	const Scenario sc = parse("rules tx-autosize\ndir rx\nrx_buf_size 16K\nsg 0x100000 64K\nsg 0x400000 32K\n");
	const RunReport r = run_scenario(sc, &p);
	EXPECT_TRUE(r.clean()) << text(*r.impl) << text(r.model);
	EXPECT_EQ(r.impl->rx_alloc.rounds[0].handed, 6u);
	EXPECT_EQ(r.model.rx_alloc.niovs, r.impl->rx_alloc.niovs);

	PluginImpl virt(lib("rx_virt_page"));
	EXPECT_TRUE(has(ids(*run_scenario(sc, &virt).impl), Inv::rx_alloc_byte_map));
	PluginImpl zero(lib("rx_zero_index"));
	const RunReport z = run_scenario(sc, &zero);
	EXPECT_TRUE(has(ids(*z.impl), Inv::rx_alloc_count)) << text(*z.impl);
	EXPECT_FALSE(z.differences.empty());
}

// gen_pool's address 0: model and code agree that the niov is lost, and the
// code WARNs and leaks its pool at unbind - the known finding.
TEST(RxAlloc, GenpoolAddressZero) {
	const Scenario sc = parse("rules linux-6.12\ndir rx\nsg 0 64K\nsg 0x100000 64K\n");
	PluginImpl p(lib("linux_6_12"));
	const RunReport r = run_scenario(sc, &p);
	EXPECT_EQ(r.model.rx_alloc.rounds[0].handed, 31u);
	EXPECT_TRUE(r.differences.empty());
	for (Inv inv : {Inv::rx_alloc_count, Inv::res_no_warn, Inv::res_no_leak}) {
		EXPECT_TRUE(has(ids(*r.impl), inv)) << id(inv);
		EXPECT_TRUE(is_known_finding(sc, inv));
	}
	// The freelist bind has no such address.
	const RunReport n = run_scenario(parse("rules net-next\ndir rx\nsg 0 64K\nsg 0x100000 64K\n"), nullptr);
	EXPECT_TRUE(n.clean()) << text(n.model);
}

// The pool the code leaks stays counted (res.no_leak above) but does not
// stay in the process: a fuzz campaign meets this bind millions of times,
// and an hour of it against the baseline plugin grew past libFuzzer's
// 2 GB RSS limit.
TEST(RxAlloc, TheLeakedPoolIsCountedNotKept) {
	const Scenario sc = parse("rules linux-6.12\ndir rx\nsg 0 64K\nsg 0x100000 64K\n");
	PluginImpl p(lib("linux_6_12"));
	for (int i = 0; i < 10; ++i)  // glibc's caches warm
		run_scenario(sc, &p);
	const uint64_t before = allocated_bytes();
	const niov_resources counted = *p.resources();
	constexpr unsigned kRuns = 64;
	for (unsigned i = 0; i < kRuns; ++i)
		EXPECT_TRUE(has(ids(*run_scenario(sc, &p).impl), Inv::res_no_leak));
	const uint64_t after = allocated_bytes();
	EXPECT_FALSE(grows_every_cycle(after > before ? after - before : 0, kRuns))
		<< "the process kept " << after - before << " bytes over " << kRuns << " leaking binds";
	EXPECT_GT(p.resources()->alloc_bytes, counted.alloc_bytes);  // still counted
}

TEST(Zcrx, RegistrationSeesTheSegments) {
	const Scenario sc = parse("rules tx-autosize\ndir zcrx\nrx_buf_size 16K\nsg 0x100000 64K\nsg 0x200000 0x1000\n");
	PluginImpl p(lib("tx_autosize"));
	const RunReport r = run_scenario(sc, &p);
	EXPECT_EQ(r.impl->bind.err, -kERANGE);
	EXPECT_TRUE(r.clean());
	PluginImpl slip(lib("zcrx_area_shift"));
	const RunReport s = run_scenario(sc, &slip);
	EXPECT_EQ(s.impl->bind.err, 0);
	EXPECT_TRUE(has(ids(*s.impl), Inv::zcrx_rx_buf_len)) << text(*s.impl);
}

const char *kSweepScenarios[] = {
	"rules tx-autosize\nsg 0x40000000 2M\nsg 0x80200000 4M\n",
	"rules tx-autosize\ndir rx\nsg 0x100000 64K\nsg 0x200000 8K\n",
};

// The sweep under the rules the plugin declares (@rules: or these).
FaultSweep sweep(const Scenario &sc, PluginImpl &p, const std::string &rules = "") {
	RulesRequest req;
	req.rules = rules;
	return sweep_faults(sc, p, resolve_rules(req, &p));
}

TEST(Faults, SoundCodeSweepsClean) {
	for (const char *stem : {"tx_autosize", "net_next", "baseline", "linux_6_12"}) {
		PluginImpl p(lib(stem));
		for (const char *t : kSweepScenarios) {
			const FaultSweep s = sweep(parse(t), p);
			if (!s.not_run.empty()) {
				EXPECT_EQ(std::string(stem), "linux_6_12") << s.not_run;
				continue;
			}
			EXPECT_GT(s.points.size(), 3u) << stem;
			EXPECT_GE(s.calls[NIOV_FAULT_ALLOC], 3u);
			EXPECT_EQ(s.calls[NIOV_FAULT_DMABUF_GET], 1u);
			EXPECT_TRUE(s.clean()) << stem << ": " << s.violations.front().detail;
		}
	}
}

TEST(Faults, TheSweepCatchesALeakOnAFailurePath) {
	const Scenario sc = parse(kSweepScenarios[0]);
	PluginImpl p(lib("leak_on_table_fail"));
	// No run without faults reaches the path ...
	EXPECT_TRUE(run_scenario(sc, &p).clean());
	// ... the sweep does.
	const FaultSweep s = sweep(sc, p);
	ASSERT_FALSE(s.violations.empty());
	EXPECT_EQ(s.violations.front().invariant, "res.no_leak");
	EXPECT_NE(s.violations.front().detail.find("alloc call 4 of"), std::string::npos) << s.violations.front().detail;
}

TEST(Faults, TheSweepCatchesAWrongErrno) {
	PluginImpl p(lib("table_errno_einval"));
	const FaultSweep s = sweep(parse(kSweepScenarios[0]), p);
	ASSERT_FALSE(s.violations.empty());
	EXPECT_EQ(s.violations.front().invariant, "fault.errno");
	EXPECT_NE(s.violations.front().detail.find("returned -EINVAL, the kernel gives -ENOMEM"), std::string::npos)
		<< s.violations.front().detail;
	// The gen_pool eras may answer -EINVAL for an allocation: gen_pool_add_owner's.
	EXPECT_EQ(fault_errnos(parse("rules baseline\n"), NIOV_FAULT_ALLOC), (std::vector<int>{-kENOMEM, -kEINVAL}));
	EXPECT_EQ(fault_errnos(parse("rules net-next\n"), NIOV_FAULT_ALLOC), (std::vector<int>{-kENOMEM}));
}

TEST(Faults, NotRunWithoutInjection) {
	PluginImpl p(lib("v1_tx_autosize"));
	const FaultSweep s = sweep(parse(kSweepScenarios[0]), p, "tx-autosize");
	EXPECT_EQ(s.not_run, "plugin lacks fault injection");
	EXPECT_TRUE(s.points.empty());
	// A bind with nothing to fail (our zcrx registration allocates nothing)
	// is not a clean sweep either.
	PluginImpl z(lib("tx_autosize"));
	const FaultSweep zs = sweep(parse("rules tx-autosize\ndir zcrx\nsg 0x100000 64K\n"), z);
	EXPECT_EQ(zs.not_run, "the bind makes no call that can be failed");
	EXPECT_TRUE(zs.points.empty());
}

}  // namespace
}  // namespace niov
