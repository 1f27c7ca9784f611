#include "fingerprint.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace niov::smt {

namespace {

constexpr const char *kFixed[] = {
	"model/rules/rules.hpp", "model/rules/word.hpp", "model/rules/config.hpp", "model/rules/config.cpp",
	"model/rules/errno.hpp", "model/RULES.md", "smt/sym_word.hpp", "smt/lemma.hpp",
};

// FNV-1a, 64 bit: change detection, not security.
void fnv(uint64_t &h, const std::string &s) {
	for (unsigned char c : s) {
		h ^= c;
		h *= 0x100000001b3ull;
	}
}

}  // namespace

std::vector<std::string> fingerprint_files(const std::string &source_dir) {
	std::vector<std::string> v(std::begin(kFixed), std::end(kFixed));
	std::vector<std::string> lemmas;
	std::error_code ec;
	for (const auto &e : std::filesystem::directory_iterator(std::filesystem::path(source_dir) / "smt/lemmas", ec))
		lemmas.push_back("smt/lemmas/" + e.path().filename().string());
	std::sort(lemmas.begin(), lemmas.end());
	v.insert(v.end(), lemmas.begin(), lemmas.end());
	return v;
}

std::string rules_fingerprint(const std::string &source_dir) {
	uint64_t h = 0xcbf29ce484222325ull;
	for (const auto &rel : fingerprint_files(source_dir)) {
		std::ifstream f(std::filesystem::path(source_dir) / rel, std::ios::binary);
		if (!f)
			return "";
		const std::string body((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
		fnv(h, rel);
		fnv(h, std::string(1, '\0'));
		fnv(h, body);
	}
	return fmt::format("{:016x}", h);
}

std::string default_source_dir() { return NIOV_SOURCE_DIR; }

}  // namespace niov::smt
