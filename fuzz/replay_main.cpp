// The plain replay driver: runs LLVMFuzzerTestOneInput over files and
// folders (recursively, in sorted order) with no fuzzing engine, so the
// default gcc build and ctest replay every corpus file.  A failing input
// aborts with the harness's one-line message, naming the file.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "crash_report.hpp"
#include "harness.hpp"
#include "input_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);

namespace fs = std::filesystem;

int main(int argc, char **argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
		return 2;
	}
	std::vector<fs::path> files;
	for (int i = 1; i < argc; ++i) {
		if (!niov::fuzz::collect_inputs(argv[i], files)) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], argv[i]);
			return 2;
		}
	}
	std::sort(files.begin(), files.end());
	LLVMFuzzerInitialize(&argc, &argv);  // as libFuzzer does before any input
	size_t rejected = 0;
	for (const auto &f : files) {
		const auto data = niov::fuzz::read_input(f);
		if (!data) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], f.c_str());
			return 2;
		}
		const std::string name = f.string();
		niov::fuzz::set_input_path(name.c_str());
		niov::fuzz::watchdog_arm();  // no -timeout here: a plugin call that never returns
		if (LLVMFuzzerTestOneInput(data->data(), data->size()) != 0)
			++rejected;
		niov::fuzz::watchdog_disarm();
	}
	niov::fuzz::release_stdout();
	std::printf("replayed %zu inputs (%zu over the work budget, not run)\n", files.size(), rejected);
	return 0;
}
