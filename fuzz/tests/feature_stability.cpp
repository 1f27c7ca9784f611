// Coverage features that depend on an earlier input.  The fuzz targets keep
// storage from one input to the next (the decoder's vectors, the thread's
// BufferStash), so a branch on kept capacity or on a stash being empty
// follows the input before, not this one.  libFuzzer takes such an edge for
// a new behaviour of whatever input happens to run after the right
// predecessor: the corpus fills with inputs that add nothing, and every run
// pays the bookkeeping of counters that say nothing.
//
// This driver links a target's harness and instrumented core without
// libFuzzer, receives the coverage counters itself, and runs every input
// twice, each time after a different other input; any counter whose
// libFuzzer bucket differs between the two runs is reported.  With
// --self-test it adds a branch on a counter kept across inputs to its own
// instrumented code and must report it.
//
// usage: feature_stability [--self-test] [--mutants N] DIR_OR_FILE...
// exit 0: stable; 1: unstable counters (listed); 2: bad usage or input.
#include <dlfcn.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "input_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
// The branch --self-test plants (planted_branch.cpp, instrumented; this
// file is not, or its own loops would count).
extern "C" void niov_feature_stability_planted_branch();

namespace {

uint8_t *g_counters_begin = nullptr, *g_counters_end = nullptr;
const uintptr_t *g_pcs = nullptr;  // (pc, flags) pairs, one per counter

// libFuzzer's hit-count buckets: a counter is one feature per bucket.
int bucket(uint8_t c) {
	if (c < 4)
		return c;
	if (c < 8)
		return 4;
	if (c < 16)
		return 5;
	if (c < 32)
		return 6;
	return c < 128 ? 7 : 8;
}

bool g_self_test = false;

using Input = std::vector<uint8_t>;

void run(const Input &input) {
	std::memset(g_counters_begin, 0, static_cast<size_t>(g_counters_end - g_counters_begin));
	if (g_self_test)
		niov_feature_stability_planted_branch();
	LLVMFuzzerTestOneInput(input.data(), input.size());
}

// A fixed xorshift: the mutants are the same on every run.
struct Rng {
	uint64_t s = 0x9e3779b97f4a7c15ull;
	uint64_t next() {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		return s;
	}
};

Input mutant(const Input &seed, Rng &rng) {
	Input m = seed;
	const int edits = 1 + static_cast<int>(rng.next() % 4);
	for (int e = 0; e < edits; ++e) {
		const uint64_t r = rng.next();
		if (m.empty() || r % 3 == 0)
			m.insert(m.begin() + static_cast<long>(m.empty() ? 0 : r % m.size()), static_cast<uint8_t>(r >> 8));
		else if (r % 3 == 1)
			m[r % m.size()] = static_cast<uint8_t>(r >> 16);
		else
			m.erase(m.begin() + static_cast<long>(r % m.size()));
	}
	return m;
}

std::string where(uintptr_t pc) {
	Dl_info info{};
	if (!dladdr(reinterpret_cast<void *>(pc), &info) || !info.dli_fbase)
		return "?";
	char buf[64];
	// A pc past a call: addr2line -f -C -i -e BINARY OFFSET names the line.
	std::snprintf(buf, sizeof(buf), "%#lx", static_cast<unsigned long>(pc - reinterpret_cast<uintptr_t>(info.dli_fbase)));
	return std::string(info.dli_fname) + " " + buf + " (" + (info.dli_sname ? info.dli_sname : "a local function") + ")";
}

}  // namespace

extern "C" {
// The hooks SanitizerCoverage calls; libFuzzer is not linked.
__attribute__((tls_model("initial-exec"))) thread_local uintptr_t __sancov_lowest_stack;
void __sanitizer_cov_8bit_counters_init(uint8_t *begin, uint8_t *end) {
	g_counters_begin = begin;
	g_counters_end = end;
}
void __sanitizer_cov_pcs_init(const uintptr_t *begin, const uintptr_t *) { g_pcs = begin; }
void __sanitizer_cov_trace_cmp1(uint8_t, uint8_t) {}
void __sanitizer_cov_trace_cmp2(uint16_t, uint16_t) {}
void __sanitizer_cov_trace_cmp4(uint32_t, uint32_t) {}
void __sanitizer_cov_trace_cmp8(uint64_t, uint64_t) {}
void __sanitizer_cov_trace_const_cmp1(uint8_t, uint8_t) {}
void __sanitizer_cov_trace_const_cmp2(uint16_t, uint16_t) {}
void __sanitizer_cov_trace_const_cmp4(uint32_t, uint32_t) {}
void __sanitizer_cov_trace_const_cmp8(uint64_t, uint64_t) {}
void __sanitizer_cov_trace_switch(uint64_t, uint64_t *) {}
void __sanitizer_cov_trace_div4(uint32_t) {}
void __sanitizer_cov_trace_div8(uint64_t) {}
void __sanitizer_cov_trace_gep(uintptr_t) {}
void __sanitizer_cov_trace_pc_indir(uintptr_t) {}
}

int main(int argc, char **argv) {
	const char *prog = argv[0];
	int mutants = 8;
	std::vector<Input> inputs;
	int first_path = 1;
	for (; first_path < argc && argv[first_path][0] == '-'; ++first_path) {
		const std::string a = argv[first_path];
		if (a == "--self-test") {
			g_self_test = true;
		} else if (a == "--mutants" && first_path + 1 < argc) {
			const std::string_view v = argv[++first_path];
			const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), mutants);
			if (ec != std::errc() || end != v.data() + v.size() || mutants < 0) {
				std::fprintf(stderr, "%s: --mutants '%s': want a count\n", prog, argv[first_path]);
				return 2;
			}
		} else {
			std::fprintf(stderr, "%s: unknown option '%s'\n", prog, a.c_str());
			return 2;
		}
	}
	std::vector<std::filesystem::path> files;
	for (int i = first_path; i < argc; ++i)
		if (!niov::fuzz::collect_inputs(argv[i], files)) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", prog, argv[i]);
			return 2;
		}
	std::sort(files.begin(), files.end());
	for (const auto &f : files) {
		auto data = niov::fuzz::read_input(f);
		if (!data) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", prog, f.c_str());
			return 2;
		}
		inputs.push_back(std::move(*data));
	}
	if (inputs.size() < 2) {
		std::fprintf(stderr, "usage: %s [--self-test] [--mutants N] DIR_OR_FILE... (two inputs at least)\n", prog);
		return 2;
	}
	if (!g_counters_begin || !g_pcs) {
		std::fprintf(stderr, "%s: built without SanitizerCoverage counters\n", prog);
		return 2;
	}
	Rng rng;
	const size_t seeds = inputs.size();
	for (size_t i = 0; i < seeds; ++i)
		for (int m = 0; m < mutants; ++m)
			inputs.push_back(mutant(inputs[i], rng));
	LLVMFuzzerInitialize(&argc, &argv);

	const size_t n = static_cast<size_t>(g_counters_end - g_counters_begin);
	std::vector<uint8_t> first(n);
	std::map<size_t, size_t> unstable;  // counter -> inputs it differed on
	size_t unstable_inputs = 0;
	uint64_t set = 0;  // counters set, over all inputs: libFuzzer's work per input follows it
	for (size_t i = 0; i < inputs.size(); ++i) {
		// Two different predecessors, neither the input itself.
		run(inputs[(i + 1) % inputs.size()]);
		run(inputs[i]);
		std::memcpy(first.data(), g_counters_begin, n);
		run(inputs[(i + inputs.size() / 2 + 1) % inputs.size()]);
		run(inputs[i]);
		bool differs = false;
		for (size_t k = 0; k < n; ++k) {
			set += g_counters_begin[k] != 0;
			if (bucket(first[k]) != bucket(g_counters_begin[k])) {
				++unstable[k];
				differs = true;
			}
		}
		unstable_inputs += differs;
	}
	std::fprintf(stderr, "feature_stability: %zu inputs (%zu files, %d mutants each), %zu counters, %.1f set per input: "
		     "%zu inputs with features that follow the input before, %zu such counters\n",
		     inputs.size(), seeds, mutants, n, static_cast<double>(set) / static_cast<double>(inputs.size()),
		     unstable_inputs, unstable.size());
	for (const auto &[k, times] : unstable)
		std::fprintf(stderr, "  counter %zu at %s: differed on %zu inputs\n", k, where(g_pcs[2 * k]).c_str(),
			     times);
	return unstable.empty() ? 0 : 1;
}
