#include "series_tree.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "../kernel/tool/era_probe.hpp"
#include "series_exec.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

// The files named outright; net/core/*.h come on top.
const char *const kNamed[] = {"net/core/devmem.c",
			      "net/core/datagram.c",
			      "net/core/netdev-genl.c",
			      "lib/genalloc.c",
			      "include/net/netmem.h",
			      "include/net/page_pool/memory_provider.h",
			      "include/linux/genalloc.h"};

// What one file of a tree may weigh, as for every other input of the suite.
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

std::string file_bytes(const fs::path &p) {
	std::ifstream in(p, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

std::string take(const fs::path &p, const std::string &rel) {
	std::error_code ec;
	if (!fs::is_regular_file(p, ec))
		throw kernel::KernelTreeError(fmt::format("{}: not a regular file", p.string()));
	if (fs::file_size(p, ec) > kMaxFileBytes)
		throw kernel::KernelTreeError(fmt::format("{}: {} exceeds {} bytes (limit)", p.string(), rel, kMaxFileBytes));
	return file_bytes(p);
}

struct TreeFnv {
	uint64_t h = 1469598103934665603ULL;
	void add(const std::string &s) {
		for (unsigned char c : s) {
			h ^= c;
			h *= 1099511628211ULL;
		}
		h ^= 0xff;
		h *= 1099511628211ULL;
	}
};

}  // namespace

bool kernel_mode_reads(const std::string &path) {
	for (const char *n : kNamed)
		if (path == n)
			return true;
	static const std::regex header(R"(^net/core/[^/]+\.h$)");
	return std::regex_match(path, header);
}

TreeFiles tree_files_of_dir(const std::string &tree) {
	TreeFiles out;
	std::error_code ec;
	for (const char *n : kNamed)
		if (fs::exists(fs::path(tree) / n, ec))
			out[n] = take(fs::path(tree) / n, n);
	if (fs::is_directory(fs::path(tree) / "net/core", ec))
		for (const auto &e : fs::directory_iterator(fs::path(tree) / "net/core", ec)) {
			const std::string rel = "net/core/" + e.path().filename().string();
			if (kernel_mode_reads(rel) && e.is_regular_file(ec))
				out[rel] = take(e.path(), rel);
		}
	return out;
}

TreeFiles tree_files_at_rev(const std::string &repo, const std::string &rev, const std::string &scratch) {
	const ExecOptions git_env{"", "", {{"GIT_OPTIONAL_LOCKS", "0"}}, ""};
	std::vector<std::string> ls = {"git", "-C", repo, "ls-tree", "--name-only", rev, "--", "net/core/"};
	for (const char *n : kNamed)
		ls.push_back(n);
	const ExecResult names = exec_capture(ls, scratch, git_env);
	if (names.code != 0)
		throw kernel::KernelTreeError(fmt::format("{}: git ls-tree {} failed: {}", repo, rev,
							  names.err.substr(0, names.err.find('\n'))));
	TreeFiles out;
	std::istringstream in(names.out);
	for (std::string rel; std::getline(in, rel);) {
		if (!kernel_mode_reads(rel))
			continue;
		const ExecResult blob = exec_capture({"git", "-C", repo, "cat-file", "blob", rev + ":" + rel}, scratch, git_env);
		if (blob.code != 0)
			throw kernel::KernelTreeError(fmt::format("{}: git cat-file {}:{} failed", repo, rev, rel));
		if (blob.out.size() > kMaxFileBytes)
			throw kernel::KernelTreeError(fmt::format("{}: {}:{} exceeds {} bytes (limit)", repo, rev, rel, kMaxFileBytes));
		out[rel] = blob.out;
	}
	return out;
}

std::string tree_hash(const TreeFiles &files) {
	TreeFnv a, b;
	b.add("second");  // two independent 64-bit hashes: a name that will not collide
	for (const auto &[path, text] : files) {
		a.add(path), a.add(text);
		b.add(path), b.add(text);
	}
	return fmt::format("{:016x}{:016x}", a.h, b.h);
}

std::string materialize(const TreeFiles &files, const std::string &root) {
	const fs::path dir = fs::path(root) / tree_hash(files);
	std::error_code ec;
	if (fs::is_directory(dir, ec))
		return dir.string();
	const fs::path tmp = dir.string() + ".tmp." + std::to_string(::getpid());
	write_tree(files, tmp.string());
	fs::rename(tmp, dir, ec);
	if (ec)  // another run made it first: theirs is the same
		fs::remove_all(tmp, ec);
	return dir.string();
}

void write_tree(const TreeFiles &files, const std::string &dir) {
	std::error_code ec;
	fs::remove_all(dir, ec);
	for (const auto &[rel, text] : files) {
		const fs::path p = fs::path(dir) / rel;
		fs::create_directories(p.parent_path());
		std::ofstream out(p, std::ios::binary | std::ios::trunc);
		out << text;
		if (!out)
			throw kernel::KernelTreeError(fmt::format("{}: cannot write", p.string()));
	}
}

TreeFiles read_tree(const std::string &dir) { return tree_files_of_dir(dir); }

std::vector<unsigned> added_lines(const std::string &before, const std::string &after, const std::string &scratch) {
	if (before == after)
		return {};
	const std::string a = scratch + "/added-a", b = scratch + "/added-b";
	std::ofstream(a, std::ios::binary | std::ios::trunc) << before;
	std::ofstream(b, std::ios::binary | std::ios::trunc) << after;
	const ExecResult d = exec_capture({"diff", "-U0", "--", a, b}, scratch);
	if (d.code != 0 && d.code != 1)
		throw kernel::KernelTreeError("diff failed: " + d.err.substr(0, d.err.find('\n')));
	static const std::regex re(R"(^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@)");
	std::vector<unsigned> out;
	std::istringstream in(d.out);
	std::smatch m;
	for (std::string line; std::getline(in, line);)
		if (std::regex_search(line, m, re)) {
			const unsigned start = static_cast<unsigned>(std::stoul(m[1]));
			const unsigned count = m[2].matched ? static_cast<unsigned>(std::stoul(m[2])) : 1;
			for (unsigned k = 0; k < count; ++k)
				out.push_back(start + k);
		}
	return out;
}

}  // namespace niov::cli
