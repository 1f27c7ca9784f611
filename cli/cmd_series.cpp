// `niovcheck kernel series BASE (PATCH... | --mbox FILE | --range A..B)`:
// a patch series checked patch by patch (series_run.hpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "commands.hpp"
#include "kernel_build.hpp"
#include "output_paths.hpp"
#include "series_report.hpp"
#include "series_run.hpp"
#include "whole_file.hpp"
#include "work_dir.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

int cmd_kernel_series(Args &args) {
	AllRequest req = all_request(args);
	const std::string mbox = args.option("mbox", "");
	const std::string range = args.option("range", "");
	SeriesOptions opt;
	opt.coverage = !args.flag("no-coverage");
	auto pos = args.positional();
	args.done();
	if (req.summary)
		throw UsageError("kernel series has no --summary: the table, --json or --tap");
	if (!req.impl.empty() || !req.kernel.empty())
		throw UsageError("kernel series takes the base tree as its first argument, not --impl/--kernel");
	if (pos.empty())
		throw UsageError("kernel series needs a base: kernel series BASE (PATCH... | --mbox FILE | --range A..B)");
	const int given = (pos.size() > 1) + !mbox.empty() + !range.empty();
	if (given != 1)
		throw UsageError("kernel series takes the patches one way: patch files, --mbox FILE or --range A..B");
	std::error_code ec;
	const std::string base = fs::canonical(pos[0], ec).string();
	if (ec || !fs::is_directory(base))
		throw UsageError(fmt::format("{}: not a directory", pos[0]));
	auto inside_base = [&](const std::string &dir) { return dir == base || dir.rfind(base + "/", 0) == 0; };
	const std::string name = "series-" + fs::path(base).filename().string();
	if (req.work_dir.empty()) {
		// ./niovcheck-failures, as `all` does, unless that is in the tree
		// (run from a kernel checkout): then the kernel cache's folder.
		req.work_dir = fs::weakly_canonical(fs::absolute("niovcheck-failures/" + name)).string();
		if (inside_base(req.work_dir))
			req.work_dir = (fs::path(kernel_cache_dir()) / "series-work" / name).string();
	}
	opt.work = fs::weakly_canonical(fs::absolute(req.work_dir)).string();
	if (inside_base(opt.work))
		throw UsageError(fmt::format("--work-dir {} is inside the base tree {}: the series never writes there", opt.work, base));
	// The suite's own folder (a marker says so), never a user's files cleared.
	opt.work = prepare_work_dir(opt.work, "--work-dir");
	fs::create_directories(opt.work + "/tmp", ec);
	if (ec)
		throw UsageError(fmt::format("--work-dir {}: cannot create: {}", opt.work, ec.message()));

	SeriesSource src;
	if (!range.empty())
		src = series_from_range(base, range, opt.work + "/tmp");
	else if (!mbox.empty())
		src = series_from_mbox(base, mbox);
	else
		src = series_from_files(base, std::vector<std::string>(pos.begin() + 1, pos.end()));

	// Where the report goes is known before the steps run: a verdict that
	// cannot be written is lost work.
	check_stdout();
	if (!req.junit.empty())
		check_output_path(req.junit, "--junit");
	const SeriesVerdict v = run_series(src, req, opt);
	if (req.json)
		std::fputs((series_json(v).dump(2) + "\n").c_str(), stdout);
	else if (req.tap)
		print_series_ktap(stdout, v);
	else
		print_series_text(stdout, v);
	if (std::fflush(stdout) != 0 || std::ferror(stdout))
		throw UsageError(fmt::format("the verdict was not written to stdout: {}", std::strerror(errno)));
	if (!req.junit.empty())
		if (const std::string err = write_whole_file(req.junit, series_junit(v)); !err.empty())
			throw UsageError(fmt::format("--junit {}: cannot write: {}", req.junit, err));
	return v.exit_code();
}

}  // namespace niov::cli
