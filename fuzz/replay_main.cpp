// The plain replay driver: runs LLVMFuzzerTestOneInput over files and
// folders (recursively, in sorted order) with no fuzzing engine, so the
// default gcc build and ctest replay every corpus file.  A failing input
// aborts with the harness's one-line message, naming the file.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "crash_report.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);

namespace {

namespace fs = std::filesystem;

// Files whose name says they are not inputs (the engines' side files).
bool is_side_file(const fs::path &p) {
	const auto ext = p.extension();
	return ext == ".dict" || ext == ".options" || ext == ".md" || p.filename().string().front() == '.';
}

bool collect(const fs::path &p, std::vector<fs::path> &out) {
	std::error_code ec;
	if (fs::is_directory(p, ec)) {
		for (const auto &e : fs::recursive_directory_iterator(p, ec))
			if (e.is_regular_file() && !is_side_file(e.path()))
				out.push_back(e.path());
		return !ec;
	}
	if (fs::is_regular_file(p, ec)) {
		out.push_back(p);
		return true;
	}
	return false;
}

}  // namespace

int main(int argc, char **argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
		return 2;
	}
	std::vector<fs::path> files;
	for (int i = 1; i < argc; ++i) {
		if (!collect(argv[i], files)) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], argv[i]);
			return 2;
		}
	}
	std::sort(files.begin(), files.end());
	LLVMFuzzerInitialize(&argc, &argv);  // as libFuzzer does before any input
	size_t rejected = 0;
	for (const auto &f : files) {
		std::ifstream in(f, std::ios::binary);
		if (!in) {
			std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], f.c_str());
			return 2;
		}
		std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
		const std::string name = f.string();
		niov::fuzz::set_input_path(name.c_str());
		niov::fuzz::watchdog_arm();  // no -timeout here: a plugin call that never returns
		if (LLVMFuzzerTestOneInput(data.data(), data.size()) != 0)
			++rejected;
		niov::fuzz::watchdog_disarm();
	}
	niov::fuzz::release_stdout();
	std::printf("replayed %zu inputs (%zu over the work budget, not run)\n", files.size(), rejected);
	return 0;
}
