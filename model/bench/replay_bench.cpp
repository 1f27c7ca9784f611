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

}  // namespace
}  // namespace niov

BENCHMARK_MAIN();
