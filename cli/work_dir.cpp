#include "work_dir.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "args.hpp"
#include "whole_file.hpp"

namespace niov::cli {

namespace fs = std::filesystem;

std::string safe_component(const std::string &name) {
	std::string s;
	for (char c : name.substr(0, 64)) {
		const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				   c == '.' || c == '-' || c == '_';
		s += plain ? c : '_';
	}
	if (s.empty() || s.find_first_not_of('.') == std::string::npos)
		s = "plugin" + s;
	return s;
}

std::string prepare_work_dir(const std::string &dir, const std::string &option) {
	std::error_code ec;
	const fs::path abs = fs::absolute(dir, ec).lexically_normal();
	if (ec)
		throw UsageError(fmt::format("{} {}: {}", option, dir, ec.message()));
	const fs::path marker = abs / kWorkMarker;
	const auto st = fs::symlink_status(abs, ec);
	if (fs::exists(st)) {
		if (!fs::is_directory(st))
			throw UsageError(fmt::format("{} {}: exists and is not a folder (give a new or empty folder)", option, dir));
		const bool ours = fs::is_regular_file(fs::symlink_status(marker, ec));
		if (!ours && !fs::is_empty(abs, ec))
			throw UsageError(fmt::format("{} {}: holds files niovcheck did not create (no {} in it); give a new "
						     "or empty folder",
						     option, dir, kWorkMarker));
		// The previous run's files: this folder is the suite's own.
		for (const auto &e : fs::directory_iterator(abs, ec))
			if (e.path().filename() != kWorkMarker)
				fs::remove_all(e.path(), ec);
	} else {
		fs::create_directories(abs, ec);
		if (ec)
			throw UsageError(fmt::format("{} {}: cannot create: {}", option, dir, ec.message()));
	}
	if (const std::string err = write_whole_file(marker.string(), "a niovcheck work folder: its files are the suite's "
								      "and are replaced on the next run\n");
	    !err.empty())
		throw UsageError(fmt::format("{} {}: cannot write: {}", option, dir, err));
	return abs.string();
}

}  // namespace niov::cli
