#include "input_files.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

namespace niov::fuzz {

namespace {

namespace fs = std::filesystem;

// Files whose name says they are not inputs (the engines' side files).
bool is_side_file(const fs::path &p) {
	const auto ext = p.extension();
	return ext == ".dict" || ext == ".options" || ext == ".md" || p.filename().string().front() == '.';
}

}  // namespace

bool collect_inputs(const fs::path &p, std::vector<fs::path> &out) {
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

std::optional<std::vector<uint8_t>> read_input(const fs::path &p) {
	std::ifstream in(p, std::ios::binary);
	if (!in)
		return std::nullopt;
	return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace niov::fuzz
