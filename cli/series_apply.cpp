#include "series_apply.hpp"

#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "args.hpp"
#include "series_exec.hpp"

namespace niov::cli {

std::vector<HunkApplied> apply_section(const DiffSection &s, const std::string &dir, const std::string &patch_name,
				       const std::string &scratch) {
	const std::string file = scratch + "/section.patch";
	std::ofstream(file, std::ios::binary | std::ios::trunc) << s.text;
	// --force: never take a patch for reversed (a hunk that is already in
	// is a hunk that does not apply); no backups, no reject files in the
	// scratch tree; --verbose: a line for every hunk, exact ones too.
	const ExecResult r = exec_capture({"patch", "-p1", "--force", "--verbose", "--no-backup-if-mismatch",
					   "--reject-file=-", "-d", dir, "-i", file},
					  scratch);
	if (r.code == 127)
		throw UsageError("GNU patch is not installed (ci/install-deps.sh installs it)");
	std::vector<HunkApplied> out(s.hunks.size());
	for (std::size_t i = 0; i < s.hunks.size(); ++i)
		out[i].header = s.hunks[i].header;
	static const std::regex ok(R"(^Hunk #(\d+) succeeded at (\d+)(?: with fuzz (\d+))?(?: \(offset (-?\d+) lines?\))?\.)");
	static const std::regex failed(R"(^Hunk #(\d+) FAILED at (\d+))");
	std::istringstream in(r.out + r.err);
	std::smatch m;
	std::vector<bool> seen(s.hunks.size());
	for (std::string line; std::getline(in, line);) {
		if (std::regex_search(line, m, failed)) {
			const std::size_t n = std::stoul(m[1]);
			const std::string header = n >= 1 && n <= s.hunks.size() ? s.hunks[n - 1].header : "?";
			throw UsageError(fmt::format("{}: {}: hunk #{} ({}) does not apply", patch_name, s.path, n, header));
		}
		if (std::regex_search(line, m, ok)) {
			const std::size_t n = std::stoul(m[1]);
			if (n < 1 || n > out.size())
				continue;
			out[n - 1].at = static_cast<unsigned>(std::stoul(m[2]));
			out[n - 1].fuzz = m[3].matched ? static_cast<unsigned>(std::stoul(m[3])) : 0;
			out[n - 1].offset = m[4].matched ? std::stol(m[4]) : 0;
			seen[n - 1] = true;
		}
	}
	if (r.code != 0) {
		// Not a hunk: the file itself (missing, a new file that exists...).
		std::string why;
		std::istringstream lines(r.out + r.err);
		for (std::string line; std::getline(lines, line);)
			if (line.find("can't find file") != std::string::npos || line.find("No such file") != std::string::npos ||
			    line.find("already exists") != std::string::npos || line.find("malformed") != std::string::npos ||
			    line.find("Only garbage") != std::string::npos) {
				why = line;
				break;
			}
		throw UsageError(fmt::format("{}: {}: does not apply{}", patch_name, s.path, why.empty() ? "" : ": " + why));
	}
	for (std::size_t i = 0; i < seen.size(); ++i)
		if (!seen[i])
			throw UsageError(fmt::format("{}: {}: patch said nothing about hunk #{} ({})", patch_name, s.path, i + 1,
						     s.hunks[i].header));
	return out;
}

}  // namespace niov::cli
