// How long one scenario replay takes: a 64-entry sg table and 100 sends,
// through the model alone and through model + the tx-autosize plugin.
#include <benchmark/benchmark.h>

#include "plugin.hpp"
#include "report.hpp"

namespace niov {
namespace {

Scenario bench_scenario() {
	Scenario sc;
	sc.name = "bench";
	for (uint64_t i = 0; i < 64; ++i)	// 64 KiB segments at scattered 64 KiB-aligned IOVAs
		sc.segs.push_back({0x100000000ull + ((i * 37) % 64) * 0x30000ull + 0x10000ull, 0x10000});
	sc.dmabuf_size = 64 * 0x10000;
	sc.dmabuf_size_set = true;
	for (uint32_t k = 0; k < 100; ++k) {
		Op send{OpKind::send, {{(k * 40961ull) % (sc.dmabuf_size - 0x10000), 0x10000}}, std::nullopt, 0, k};
		sc.ops.push_back(send);
		Op ack{OpKind::ack, {}, std::nullopt, 0x10000, k};
		sc.ops.push_back(ack);
	}
	return sc;
}

void BM_ReplayModel(benchmark::State &state) {
	const Scenario sc = bench_scenario();
	for (auto _ : state) {
		auto r = run_scenario(sc, nullptr);
		benchmark::DoNotOptimize(r);
		if (!r.clean())
			state.SkipWithError("bench scenario not clean");
	}
}
BENCHMARK(BM_ReplayModel)->Unit(benchmark::kMicrosecond);

void BM_ReplayModelAndPlugin(benchmark::State &state) {
	const Scenario sc = bench_scenario();
	PluginImpl impl(NIOV_TX_AUTOSIZE_PLUGIN);
	for (auto _ : state) {
		auto r = run_scenario(sc, &impl);
		benchmark::DoNotOptimize(r);
		if (!r.clean())
			state.SkipWithError("bench scenario not clean");
	}
}
BENCHMARK(BM_ReplayModelAndPlugin)->Unit(benchmark::kMicrosecond);

// The queue that once went quadratic: N sends of 4 KiB, then one ack of everything.
// Linear means 10x the sends costs 10x the time (10,000 took 16.6 s).
Scenario sends_then_ack(uint64_t n) {
	Scenario sc;
	sc.name = "sends_then_ack";
	sc.segs.push_back({0x40000000, 2 << 20});
	sc.dmabuf_size = 2 << 20;
	for (uint32_t k = 0; k < n; ++k)
		sc.ops.push_back(Op{OpKind::send, {{(k * 4096ull) % (2 << 20), 4096}}, std::nullopt, 0, k});
	sc.ops.push_back(Op{OpKind::ack, {}, std::nullopt, n * 4096, 0});
	return sc;
}

void BM_SendsThenAck(benchmark::State &state) {
	const Scenario sc = sends_then_ack(static_cast<uint64_t>(state.range(0)));
	for (auto _ : state)
		benchmark::DoNotOptimize(run_scenario(sc, nullptr));
	state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_SendsThenAck)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);

// The same replay on dmabufs of 64 MiB to 64 GiB (2 MiB niovs, one
// segment) with the plugin loaded: the model's probes and checks never scan
// the table; only the plugin's own bind grows with it.
void BM_DmabufSizeWithPlugin(benchmark::State &state) {
	Scenario sc = bench_scenario();
	const uint64_t size = uint64_t{64} << (20 + state.range(0));
	sc.segs = {{0x4000000000ull, size}};
	sc.dmabuf_size = size;
	PluginImpl impl(NIOV_TX_AUTOSIZE_PLUGIN);
	for (auto _ : state)
		benchmark::DoNotOptimize(run_scenario(sc, &impl));
}
BENCHMARK(BM_DmabufSizeWithPlugin)->Arg(0)->Arg(5)->Arg(10)->Unit(benchmark::kMicrosecond);

// One send across N 4 KiB segments (a memfd udmabuf without an IOMMU): the
// byte map is a binary search per frag, not a walk over every segment.
void BM_Segments(benchmark::State &state) {
	Scenario sc;
	sc.name = "segments";
	const uint64_t n = static_cast<uint64_t>(state.range(0));
	for (uint64_t i = 0; i < n; ++i)
		sc.segs.push_back({0x100000000ull + i * 0x3000, 0x1000});
	sc.dmabuf_size = n * 0x1000;
	sc.ops.push_back(Op{OpKind::send, {{0, std::min<uint64_t>(sc.dmabuf_size, 1 << 20)}}, std::nullopt, 0, 1});
	sc.ops.push_back(Op{OpKind::free, {}, std::nullopt, 0, 2});
	for (auto _ : state)
		benchmark::DoNotOptimize(run_scenario(sc, nullptr));
}
BENCHMARK(BM_Segments)->Arg(256)->Arg(4096)->Arg(65536)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace niov

BENCHMARK_MAIN();
