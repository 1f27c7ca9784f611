#include "series_coverage.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../kernel/tool/era_probe.hpp"
#include "kernel_build.hpp"
#include "series_exec.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

// gcov's JSON of one object's counts (`gcov --json-format --stdout`, gcc 9
// on), merged into @into under paths relative to @tree.
void merge_gcov(const std::string &json, const std::string &tree, LineCounts &into) {
	std::istringstream docs(json);
	for (std::string doc; std::getline(docs, doc);) {
		if (doc.find('{') == std::string::npos)
			continue;
		const auto j = nlohmann::json::parse(doc, nullptr, false);
		if (j.is_discarded())
			continue;
		const std::string cwd = j.value("current_working_directory", "");
		for (const auto &f : j.value("files", nlohmann::json::array())) {
			fs::path p = f.value("file", "");
			if (p.is_relative())
				p = fs::path(cwd) / p;
			const std::string abs = p.lexically_normal().string();
			if (abs.rfind(tree + "/", 0) != 0)
				continue;  // the shim's, the runtime's, the adapter's: not the tree's
			auto &lines = into[abs.substr(tree.size() + 1)];
			for (const auto &l : f.value("lines", nlohmann::json::array()))
				lines[l.value("line_number", 0u)] += l.value("count", uint64_t{0});
		}
	}
}

unsigned path_depth(const fs::path &p) {
	unsigned n = 0;
	for (const auto &c : p.relative_path())
		n += !c.empty();
	return n;
}

}  // namespace

std::vector<std::string> coverage_engines(const AllRequest &req) {
	std::vector<std::string> out;
	for (const char *e : {"replay", "props", "faults"})
		if (req.engines.empty() || std::find(req.engines.begin(), req.engines.end(), e) != req.engines.end())
			out.emplace_back(e);
	return out;
}

CoverageRun measure_coverage(const std::string &tree, const AllRequest &req, const std::vector<std::string> &engines,
			     uint64_t cases, const std::string &rule_flags, const std::string &work,
			     const std::string &niovcheck) {
	const auto t0 = std::chrono::steady_clock::now();
	CoverageRun out;
	std::error_code ec;
	fs::remove_all(work, ec);
	fs::create_directories(work + "/gcda", ec);
	auto done = [&](std::string note) {
		out.note = std::move(note);
		out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		return out;
	};
	if (engines.empty())
		return done("no engine that runs the plugin's cases was asked for (replay, props, faults)");
	KernelBuildOptions opt;
	opt.coverage = true;
	opt.quiet = true;
	const KernelBuild b = kernel_build(tree, opt);
	out.plugin = b.plugin;
	std::string list;
	for (const auto &e : engines)
		list += (list.empty() ? "" : ",") + e;
	std::vector<std::string> argv = {niovcheck, "all", "--impl", b.plugin, "--engines", list,
					 "--cases", std::to_string(cases), "--seed", std::to_string(req.seed),
					 "--json", "--work-dir", work + "/run", "--no-build-fuzz"};
	std::istringstream flags(rule_flags);
	for (std::string w; flags >> w;)
		argv.push_back(w);
	// The counters go to work/gcda/<object>.gcda: gcov writes them at the
	// path the object had when compiled (the build's folder), with its
	// leading components replaced by GCOV_PREFIX.
	std::string preload = b.build_dir + "/flush.so";
	if (const char *p = std::getenv("LD_PRELOAD"); p && *p)
		preload += std::string(":") + p;
	// A niovcheck built with ASan (the sanitizer CI's) wants its runtime
	// first in the library list and stops when a preload comes before it;
	// the flush only interposes _exit, which ASan does not.
	std::string asan = "verify_asan_link_order=0";
	if (const char *a = std::getenv("ASAN_OPTIONS"); a && *a)
		asan = std::string(a) + ":" + asan;
	ExecOptions eo;
	eo.env = {{"LD_PRELOAD", preload},
		  {"GCOV_PREFIX", work + "/gcda"},
		  {"GCOV_PREFIX_STRIP", std::to_string(path_depth(b.build_dir))},
		  {"ASAN_OPTIONS", asan}};
	eo.stdout_file = work + "/verdict.json";
	const ExecResult r = exec_capture(argv, work, eo);
	if (r.code != 0 && r.code != 1)
		return done(fmt::format("the coverage run exited {}: {}", r.code, r.err.substr(0, r.err.find('\n'))));
	try {
		std::ifstream in(work + "/verdict.json");
		const auto v = nlohmann::json::parse(in);
		for (const auto &e : v.at("engines"))
			if (e.value("status", "") != "not run" && e.value("engine", "") != "kernel")
				out.engines.push_back(e.value("engine", ""));
	} catch (const std::exception &e) {
		return done(fmt::format("the coverage run (exit {}) left no verdict: {}", r.code,
					r.err.empty() ? e.what() : r.err.substr(0, r.err.find('\n'))));
	}
	for (const auto &e : fs::directory_iterator(b.build_dir, ec)) {
		if (e.path().extension() != ".gcno")
			continue;
		const fs::path gcda = fs::path(work) / "gcda" / (e.path().stem().string() + ".gcda");
		if (!fs::exists(gcda, ec))
			continue;
		fs::copy_file(e.path(), gcda.parent_path() / e.path().filename(), fs::copy_options::overwrite_existing, ec);
		const ExecResult g = exec_capture({"gcov", "--json-format", "--stdout", "-o", gcda.parent_path().string(),
						   gcda.string()},
						  work, {gcda.parent_path().string(), "", {}, ""});
		if (g.code != 0)
			return done(fmt::format("gcov failed on {}: {}", gcda.string(), g.err.substr(0, g.err.find('\n'))));
		merge_gcov(g.out, tree, out.lines);
	}
	if (out.lines.empty())
		return done("the coverage run wrote no counts for the tree's files");
	out.ran = true;
	return done("");
}

PatchCoverage patch_coverage(const LineCounts &counts, const std::map<std::string, std::vector<unsigned>> &added) {
	PatchCoverage pc;
	for (const auto &[file, lines] : added) {
		const auto f = counts.find(file);
		for (unsigned l : lines) {
			++pc.added;
			if (f == counts.end())
				continue;
			const auto c = f->second.find(l);
			if (c == f->second.end())
				continue;
			++pc.code;
			if (c->second)
				++pc.exercised;
			else
				pc.unexercised.push_back(fmt::format("{}:{}", file, l));
		}
	}
	return pc;
}

}  // namespace niov::cli
