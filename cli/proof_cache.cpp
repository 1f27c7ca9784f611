#include "proof_cache.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <z3.h>

#include "fingerprint.hpp"

namespace niov::cli {

namespace fs = std::filesystem;

namespace {

std::string fnv_hex(const std::string &s) {
	uint64_t h = 0xcbf29ce484222325ull;
	for (unsigned char c : s) {
		h ^= c;
		h *= 0x100000001b3ull;
	}
	return fmt::format("{:016x}", h);
}

fs::path slot(const ProofKey &key) { return fs::path(proof_cache_dir()) / (key.hash + ".json"); }

}  // namespace

ProofKey proof_key(const std::string &source_dir, const std::string &rules, const std::vector<std::string> &lemmas,
		   unsigned timeout_ms) {
	ProofKey k;
	k.fingerprint = smt::rules_fingerprint(source_dir);
	if (k.fingerprint.empty())
		return k;
	std::ostringstream what;
	what << k.fingerprint << '\n' << rules << '\n' << timeout_ms << '\n' << Z3_get_full_version() << '\n';
	for (const auto &l : lemmas)
		what << l << '\n';
	k.hash = fnv_hex(what.str());
	return k;
}

std::string proof_cache_dir() {
	if (const char *d = std::getenv("NIOV_PROOF_CACHE"); d && *d)
		return d;
	if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
		return std::string(x) + "/niovcheck/proofs";
	if (const char *home = std::getenv("HOME"); home && *home)
		return std::string(home) + "/.cache/niovcheck/proofs";
	return "/tmp/niovcheck-proofs";
}

std::optional<std::string> proof_cache_read(const ProofKey &key) {
	if (key.hash.empty())
		return std::nullopt;
	std::error_code ec;
	if (!fs::is_regular_file(slot(key), ec) || fs::file_size(slot(key), ec) > (1u << 24))
		return std::nullopt;
	std::ifstream in(slot(key), std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	if (!in || s.str().empty())
		return std::nullopt;
	return s.str();
}

bool proof_cache_write(const ProofKey &key, const std::string &report) {
	if (key.hash.empty())
		return false;
	std::error_code ec;
	fs::create_directories(proof_cache_dir(), ec);
	const fs::path tmp = slot(key).string() + ".tmp." + std::to_string(getpid());
	{
		std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
		out << report;
		out.flush();
		if (!out) {
			fs::remove(tmp, ec);
			return false;
		}
	}
	fs::rename(tmp, slot(key), ec);
	if (ec)
		fs::remove(tmp, ec);
	return !ec;
}

}  // namespace niov::cli
