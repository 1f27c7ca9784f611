#include "kernel_cache.hpp"

#include <signal.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "era_probe.hpp"
#include "bounded_file.hpp"
#include "whole_file.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

constexpr const char *kRecord = "cache-record";

// FNV-1a over the bytes: tells a truncated, garbage or swapped plugin from
// the one built (no adversary: nobody forges a cache entry to fool us).
std::string content_hash(const std::string &bytes) {
	uint64_t h = 1469598103934665603ULL;
	for (unsigned char c : bytes) {
		h ^= c;
		h *= 1099511628211ULL;
	}
	return fmt::format("{:016x}-{}", h, bytes.size());
}

std::string plugin_hash(const fs::path &entry) {
	return content_hash(read_bounded((entry / "plugin.so").string(), kernel::kTreeFileLimit));
}

}  // namespace

std::string cache_entry_mismatch(const fs::path &entry) {
	const auto record = read_bounded_if_exists((entry / kRecord).string(), 4096);
	if (!record)
		return "it has no record of what it was built from";
	std::istringstream in(*record);
	std::string key, built_for, plugin;
	for (std::string k, v; in >> k >> v;)
		(k == "entry" ? built_for : k == "plugin" ? plugin : key) = v;
	if (built_for != entry.filename().string())
		return fmt::format("it was built for {}, not this tree's inputs", built_for.empty() ? "nothing" : built_for);
	try {
		if (plugin_hash(entry) != plugin)
			return "its plugin.so is not the one built there (truncated, replaced or copied from another tree)";
	} catch (const FileError &e) {
		return e.what();
	}
	return "";
}

void record_cache_entry(const fs::path &build_dir, const std::string &entry_name) {
	const std::string text = fmt::format("entry {}\nplugin {}\n", entry_name, plugin_hash(build_dir));
	if (const std::string err = write_whole_file((build_dir / kRecord).string(), text); !err.empty())
		throw kernel::KernelTreeError(fmt::format("{}: cannot write: {}", (build_dir / kRecord).string(), err));
}

void clean_interrupted_builds(const fs::path &cache) {
	std::error_code ec;
	for (const auto &e : fs::directory_iterator(cache, ec)) {
		const std::string name = e.path().filename().string();
		const size_t at = name.rfind(".tmp.");
		if (at == std::string::npos || !e.is_directory(ec))
			continue;
		const std::string digits = name.substr(at + 5);
		if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
			continue;
		const long pid = std::strtol(digits.c_str(), nullptr, 10);
		if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
			fs::remove_all(e.path(), ec);
	}
}

std::string cache_space_note(const fs::path &cache) {
	struct statvfs st {};
	if (::statvfs(cache.c_str(), &st) != 0)
		return "";
	const uint64_t free_bytes = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
	if (free_bytes >= (uint64_t{64} << 20))
		return "";
	return fmt::format(" ({} KiB free on the disk of {})", free_bytes >> 10, cache.string());
}

}  // namespace niov::cli
