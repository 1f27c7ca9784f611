#include "series_diff.hpp"

#include <fmt/format.h>

#include <optional>
#include <regex>
#include <sstream>

namespace niov::cli {

namespace {

std::vector<std::string> lines_of(const std::string &text) {
	std::vector<std::string> out;
	std::size_t at = 0;
	while (at < text.size()) {
		const std::size_t nl = text.find('\n', at);
		const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
		out.push_back(text.substr(at, end - at));
		at = end;
	}
	return out;
}

bool starts(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

std::string chomp(std::string s) {
	while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
		s.pop_back();
	return s;
}

std::optional<DiffHunk> parse_hunk_header(const std::string &line) {
	static const std::regex re(R"(^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*)");
	std::smatch m;
	const std::string l = chomp(line);
	if (!std::regex_match(l, m, re))
		return std::nullopt;
	DiffHunk h;
	h.header = l;
	h.old_start = static_cast<unsigned>(std::stoul(m[1]));
	h.old_count = m[2].matched ? static_cast<unsigned>(std::stoul(m[2])) : 1;
	h.new_start = static_cast<unsigned>(std::stoul(m[3]));
	h.new_count = m[4].matched ? static_cast<unsigned>(std::stoul(m[4])) : 1;
	return h;
}

// "diff --git a/X b/Y": Y, -p1.  Names with spaces are split at the last " b/".
std::string git_new_name(const std::string &line) {
	const std::string l = chomp(line).substr(11);
	const std::size_t b = l.rfind(" b/");
	return b == std::string::npos ? "" : strip_one(l.substr(b + 1));
}

}  // namespace

std::string strip_one(const std::string &name) {
	std::string n = chomp(name);
	const std::size_t tab = n.find('\t');
	if (tab != std::string::npos)
		n = n.substr(0, tab);
	while (!n.empty() && n.back() == ' ')
		n.pop_back();
	if (n == "/dev/null")
		return "";
	const std::size_t slash = n.find('/');
	return slash == std::string::npos ? n : n.substr(slash + 1);
}

std::vector<DiffSection> diff_sections(const std::string &patch) {
	const std::vector<std::string> lines = lines_of(patch);
	std::vector<DiffSection> out;
	DiffSection *cur = nullptr;  // the section the next header or hunk lines belong to
	// Where in it: its headers (before the first hunk), after a hunk (more
	// may follow), or done (mail text: the next section starts afresh).
	enum { done, headers, hunks } at = done;
	for (std::size_t i = 0; i < lines.size(); ++i) {
		const std::string &line = lines[i];
		if (starts(line, "diff --git ")) {
			out.emplace_back();
			cur = &out.back();
			cur->path = cur->old_path = git_new_name(line);
			cur->text = line;
			at = headers;
			continue;
		}
		const bool plain_start = starts(line, "--- ") && i + 1 < lines.size() && starts(lines[i + 1], "+++ ");
		if (plain_start) {
			// A plain diff's section, or the names of a git section.
			if (!cur || at != headers) {
				out.emplace_back();
				cur = &out.back();
			}
			cur->old_path = strip_one(line.substr(4));
			const std::string to = strip_one(lines[i + 1].substr(4));
			cur->created = cur->old_path.empty();
			cur->deleted = to.empty();
			cur->path = cur->deleted ? cur->old_path : to;
			cur->text += line + lines[i + 1];
			++i;
			at = headers;
			continue;
		}
		if (cur && at == headers && !starts(line, "@@ ")) {
			// git's extended headers: modes, renames, index, binary.
			if (starts(line, "new file mode"))
				cur->created = true, cur->old_path.clear();
			else if (starts(line, "deleted file mode"))
				cur->deleted = true;
			else if (starts(line, "rename from "))
				cur->old_path = chomp(line.substr(12));
			else if (starts(line, "rename to "))
				cur->path = chomp(line.substr(10));
			else if (starts(line, "Binary files ") || starts(line, "GIT binary patch"))
				cur->binary = true;
			else if (!(starts(line, "index ") || starts(line, "old mode") || starts(line, "new mode") ||
				   starts(line, "similarity index") || starts(line, "dissimilarity index") ||
				   starts(line, "copy from ") || starts(line, "copy to ") || cur->binary)) {
				at = done;  // the section ended without a hunk
				continue;
			}
			cur->text += line;
			continue;
		}
		if (cur && at != done && starts(line, "@@ ")) {
			const auto h = parse_hunk_header(line);
			if (!h)
				throw DiffError(fmt::format("{}: a malformed hunk header: {}", cur->path, chomp(line)));
			cur->text += line;
			unsigned old_left = h->old_count, new_left = h->new_count;
			std::size_t j = i + 1;
			while (j < lines.size() && (old_left || new_left)) {
				const std::string &l = lines[j];
				const char c = l.empty() ? '\n' : l[0];
				// A context line whose blank the mailer stripped is still context.
				if ((c == ' ' || c == '\n' || c == '\r') && old_left && new_left)
					--old_left, --new_left;
				else if (c == '-' && old_left)
					--old_left, ++cur->removed;
				else if (c == '+' && new_left)
					--new_left, ++cur->added;
				else if (c != '\\')
					break;
				cur->text += l;
				++j;
			}
			if (old_left || new_left)
				throw DiffError(fmt::format("{}: hunk {} ends {} lines short of its header's counts", cur->path,
							    h->header, old_left + new_left));
			if (j < lines.size() && starts(lines[j], "\\"))  // "\ No newline at end of file"
				cur->text += lines[j++];
			cur->hunks.push_back(*h);
			i = j - 1;
			at = hunks;
			continue;
		}
		at = done;
	}
	return out;
}

}  // namespace niov::cli
