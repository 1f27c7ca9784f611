#include "series_input.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "args.hpp"
#include "limits.hpp"
#include "series_diff.hpp"
#include "series_exec.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

std::string read_input(const std::string &path, const char *what) {
	std::error_code ec;
	if (!fs::exists(path, ec))
		throw UsageError(fmt::format("{} {}: no such file", what, path));
	if (!fs::is_regular_file(path, ec))
		throw UsageError(fmt::format("{} {}: not a regular file", what, path));
	if (fs::file_size(path, ec) > kMaxInputBytes)
		throw UsageError(fmt::format("{} {}: exceeds {} bytes (limit)", what, path, kMaxInputBytes));
	std::ifstream in(path, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	if (!in.good() && !in.eof())
		throw UsageError(fmt::format("{} {}: cannot read", what, path));
	return s.str();
}

std::string trim(std::string s) {
	const auto b = s.find_first_not_of(" \t\r\n");
	if (b == std::string::npos)
		return "";
	return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The header block of a mail (up to the first empty line), folded lines joined.
std::vector<std::string> mail_headers(const std::string &message) {
	std::vector<std::string> out;
	std::istringstream in(message);
	for (std::string line; std::getline(in, line);) {
		if (!line.empty() && line.back() == '\r')
			line.pop_back();
		if (line.empty())
			break;
		if ((line[0] == ' ' || line[0] == '\t') && !out.empty())
			out.back() += " " + trim(line);
		else
			out.push_back(line);
	}
	return out;
}

std::string header_value(const std::string &message, const std::string &name) {
	for (const auto &h : mail_headers(message)) {
		if (h.size() > name.size() && h[name.size()] == ':' &&
		    std::equal(name.begin(), name.end(), h.begin(),
			       [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
			return trim(h.substr(name.size() + 1));
	}
	return "";
}

// Quoted-printable bodies (a mailer's choice for long lines) decoded.
std::string decode_qp(const std::string &body) {
	std::string out;
	for (std::size_t i = 0; i < body.size(); ++i) {
		if (body[i] != '=') {
			out += body[i];
			continue;
		}
		if (i + 1 < body.size() && body[i + 1] == '\n') {
			++i;
			continue;
		}
		if (i + 2 < body.size() && std::isxdigit(static_cast<unsigned char>(body[i + 1])) &&
		    std::isxdigit(static_cast<unsigned char>(body[i + 2]))) {
			out += static_cast<char>(std::stoi(body.substr(i + 1, 2), nullptr, 16));
			i += 2;
			continue;
		}
		out += body[i];
	}
	return out;
}

bool has_diff(const std::string &text) {
	try {
		return !diff_sections(text).empty();
	} catch (const DiffError &) {
		return true;  // a diff, if a broken one: applying it says what is wrong
	}
}

std::string git_one_line(const std::string &err) {
	const std::string s = trim(err);
	return s.substr(0, s.find('\n'));
}

}  // namespace

std::string mail_subject(const std::string &message) {
	std::string s = header_value(message, "Subject");
	// "[PATCH net-next v2 3/4] " and the like, any number of them.
	static const std::regex tags(R"(^(\s*\[[^\]]*\])+\s*)");
	return std::regex_replace(s, tags, "");
}

SeriesSource series_from_files(const std::string &base, const std::vector<std::string> &files) {
	SeriesSource s;
	s.kind = SeriesSource::Kind::files;
	s.base = base;
	s.what = fmt::format("{} patch file{}", files.size(), files.size() == 1 ? "" : "s");
	for (const auto &f : files) {
		SeriesPatch p;
		p.name = f;
		p.text = read_input(f, "patch");
		if (!has_diff(p.text))
			throw UsageError(fmt::format("patch {}: no diff in it", f));
		p.subject = mail_subject(p.text);
		if (p.subject.empty())
			p.subject = fs::path(f).filename().string();
		s.patches.push_back(std::move(p));
	}
	return s;
}

SeriesSource series_from_mbox(const std::string &base, const std::string &mbox) {
	const std::string text = read_input(mbox, "--mbox");
	// A message starts at a "From " line with a time in it, as mailboxes
	// separate them ("From 5fc0... Mon Sep 17 00:00:00 2001", b4's
	// "From git@z Thu Jan  1 00:00:00 1970").
	static const std::regex from_line(R"(^From \S+ .*\d\d:\d\d:\d\d.*$)");
	std::vector<std::string> messages;
	std::istringstream in(text);
	for (std::string line; std::getline(in, line);) {
		if (std::regex_match(line, from_line) || messages.empty())
			messages.emplace_back();
		messages.back() += line + "\n";
	}
	SeriesSource s;
	s.kind = SeriesSource::Kind::mbox;
	s.base = base;
	static const std::regex cover(R"(\[[^\]]*\b0+/\d+\])");
	static const std::regex reply(R"(^\s*(re|aw|fwd?)\s*:)", std::regex::icase);
	unsigned skipped = 0;
	for (std::size_t i = 0; i < messages.size(); ++i) {
		std::string m = messages[i];
		const std::string raw_subject = header_value(m, "Subject");
		const std::string cte = header_value(m, "Content-Transfer-Encoding");
		if (std::regex_search(raw_subject, cover) || std::regex_search(raw_subject, reply)) {
			++skipped;
			continue;
		}
		if (cte.find("base64") != std::string::npos || cte.find("BASE64") != std::string::npos)
			throw UsageError(fmt::format("--mbox {}: message {} ({}) is base64-encoded; b4 am writes patches decoded",
						     mbox, i + 1, raw_subject));
		if (cte.find("quoted-printable") != std::string::npos) {
			const std::size_t body = m.find("\n\n");
			if (body != std::string::npos)
				m = m.substr(0, body + 2) + decode_qp(m.substr(body + 2));
		}
		if (!has_diff(m)) {
			++skipped;
			continue;
		}
		SeriesPatch p;
		p.name = fmt::format("{} message {}", mbox, i + 1);
		p.subject = mail_subject(m);
		if (p.subject.empty())
			p.subject = p.name;
		p.text = std::move(m);
		s.patches.push_back(std::move(p));
	}
	if (s.patches.empty())
		throw UsageError(fmt::format("--mbox {}: no patch in it ({} message{}: cover letters, replies or mail without a diff)",
					     mbox, messages.size(), messages.size() == 1 ? "" : "s"));
	s.what = fmt::format("mbox {} ({} patches{})", mbox, s.patches.size(),
			     skipped ? fmt::format(", {} other messages skipped", skipped) : "");
	return s;
}

SeriesSource series_from_range(const std::string &repo, const std::string &range, const std::string &scratch) {
	const std::size_t dots = range.find("..");
	if (dots == std::string::npos || range.find("...") != std::string::npos || dots == 0)
		throw UsageError(fmt::format("--range {}: want A..B (two dots; B defaults to HEAD)", range));
	const std::string from = range.substr(0, dots), to = range.size() > dots + 2 ? range.substr(dots + 2) : "HEAD";
	const ExecOptions env{"", "", {{"GIT_OPTIONAL_LOCKS", "0"}}, ""};
	auto git = [&](std::vector<std::string> args) {
		args.insert(args.begin(), {"git", "-C", repo});
		return exec_capture(args, scratch, env);
	};
	if (git({"rev-parse", "--git-dir"}).code != 0)
		throw UsageError(fmt::format("--range: {} is not a git repository", repo));
	auto resolve = [&](const std::string &rev) {
		if (!rev.empty() && rev[0] == '-')
			throw UsageError(fmt::format("--range {}: '{}' is not a revision", range, rev));
		const ExecResult r = git({"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
		if (r.code != 0)
			throw UsageError(fmt::format("--range {}: no commit '{}' in {}", range, rev, repo));
		return trim(r.out);
	};
	const std::string a = resolve(from), b = resolve(to);
	const ExecResult merges = git({"rev-list", "--merges", a + ".." + b});
	if (merges.code != 0)
		throw UsageError(fmt::format("--range {}: git rev-list failed: {}", range, git_one_line(merges.err)));
	if (!trim(merges.out).empty()) {
		const std::string m = trim(merges.out).substr(0, trim(merges.out).find('\n'));
		const std::string subj = trim(git({"log", "-1", "--format=%s", m}).out);
		throw UsageError(fmt::format("--range {}: commit {} ({}) is a merge; a series is one line of commits",
					     range, m.substr(0, 12), subj));
	}
	const ExecResult list = git({"rev-list", "--reverse", "--topo-order", a + ".." + b});
	if (list.code != 0)
		throw UsageError(fmt::format("--range {}: git rev-list failed: {}", range, git_one_line(list.err)));
	SeriesSource s;
	s.kind = SeriesSource::Kind::range;
	s.base = repo;
	s.base_rev = a;
	std::istringstream in(list.out);
	for (std::string rev; std::getline(in, rev);) {
		rev = trim(rev);
		if (rev.empty())
			continue;
		SeriesPatch p;
		p.rev = rev;
		p.name = rev.substr(0, 12);
		p.subject = trim(git({"log", "-1", "--format=%s", rev}).out);
		const ExecResult d = git({"diff-tree", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", rev});
		if (d.code != 0)
			throw UsageError(fmt::format("--range {}: git diff-tree {} failed: {}", range, p.name, git_one_line(d.err)));
		p.text = d.out;
		s.patches.push_back(std::move(p));
	}
	if (s.patches.empty())
		throw UsageError(fmt::format("--range {}: no commit in it", range));
	s.what = fmt::format("range {} of {} ({} commits)", range, repo, s.patches.size());
	return s;
}

}  // namespace niov::cli
