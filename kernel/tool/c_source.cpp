#include "c_source.hpp"

#include <cctype>
#include <algorithm>
#include <cstdio>

namespace niov::kernel {

std::string blank_comments_and_literals(const std::string &in) {
	std::string out = in;
	enum { code, line_comment, block_comment, str, chr } st = code;
	for (std::size_t i = 0; i < in.size(); i++) {
		const char c = in[i], next = i + 1 < in.size() ? in[i + 1] : '\0';
		auto blank = [&](std::size_t k) { if (out[k] != '\n') out[k] = ' '; };
		switch (st) {
		case code:
			if (c == '/' && next == '/') { st = line_comment; blank(i); }
			else if (c == '/' && next == '*') { st = block_comment; blank(i); blank(i + 1); i++; }
			else if (c == '"') st = str;
			else if (c == '\'') st = chr;
			break;
		case line_comment:
			if (c == '\n') st = code; else blank(i);
			break;
		case block_comment:
			if (c == '*' && next == '/') { blank(i); blank(i + 1); i++; st = code; }
			else blank(i);
			break;
		case str:
		case chr:
			if (c == '\\' && i + 1 < in.size()) { blank(i); blank(i + 1); i++; }
			else if ((st == str && c == '"') || (st == chr && c == '\'')) st = code;
			else blank(i);
			break;
		}
	}
	return out;
}

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string squeeze(const std::string &s) {
	std::string out;
	for (char c : s) {
		if (std::isspace(static_cast<unsigned char>(c))) {
			if (!out.empty() && out.back() != ' ') out += ' ';
		} else out += c;
	}
	while (!out.empty() && out.back() == ' ') out.pop_back();
	return out;
}

// Depth of braces at every offset would be costly; one pass tracking the
// file-scope positions where a declaration may start is enough.
struct Scan {
	const std::string &code;  // blanked text
	explicit Scan(const std::string &c) : code(c) {}

	// Offset of the matching close of the bracket at @open, or npos.
	std::size_t match(std::size_t open) const {
		const char o = code[open], cl = o == '(' ? ')' : o == '{' ? '}' : ']';
		int depth = 0;
		for (std::size_t i = open; i < code.size(); i++) {
			if (code[i] == o) depth++;
			else if (code[i] == cl && --depth == 0) return i;
		}
		return std::string::npos;
	}
};

std::vector<std::string> split_params(const std::string &code, std::size_t open, std::size_t close) {
	std::vector<std::string> out;
	int depth = 0;
	std::size_t start = open + 1;
	for (std::size_t i = open + 1; i <= close; i++) {
		const char c = code[i];
		if (c == '(' || c == '[' || c == '{') depth++;
		else if ((c == ')' || c == ']' || c == '}') && i != close) depth--;
		if ((c == ',' && depth == 0) || i == close) {
			std::string p = squeeze(code.substr(start, i - start));
			if (!p.empty()) out.push_back(p);
			start = i + 1;
		}
	}
	if (out.size() == 1 && out[0] == "void") out.clear();
	return out;
}

std::optional<CFunction> find(const std::string &text, const std::string &name, bool want_definition) {
	const std::string code = blank_comments_and_literals(text);
	Scan scan(code);
	int depth = 0;
	std::size_t decl_start = 0;
	bool line_start = true;
	for (std::size_t i = 0; i < code.size(); i++) {
		const char c = code[i];
		if (line_start && c == '#' && depth == 0) {
			// a directive (with its continuations) ends any declaration
			while (i < code.size() && !(code[i] == '\n' && code[i - 1] != '\\')) i++;
			decl_start = i + 1;
			continue;
		}
		if (c == '\n') { line_start = true; continue; }
		if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
		if (c == '{') depth++;
		else if (c == '}') { if (--depth == 0) decl_start = i + 1; }
		else if (c == ';' && depth == 0) decl_start = i + 1;
		else if (depth == 0 && c == name[0] && code.compare(i, name.size(), name) == 0 &&
			 (i == 0 || !ident_char(code[i - 1])) &&
			 (i + name.size() >= code.size() || !ident_char(code[i + name.size()]))) {
			std::size_t j = i + name.size();
			while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) j++;
			if (j >= code.size() || code[j] != '(') continue;
			const std::size_t close = scan.match(j);
			if (close == std::string::npos) return std::nullopt;
			std::size_t k = close + 1;
			// attributes between ')' and '{' or ';'
			while (k < code.size() && code[k] != '{' && code[k] != ';' && code[k] != '=' &&
			       code[k] != ',' && code[k] != ')')
				k++;
			if (k >= code.size() || (code[k] != '{' && code[k] != ';')) continue;
			const bool def = code[k] == '{';
			if (want_definition && !def) { i = k; decl_start = k + 1; continue; }
			CFunction f;
			f.name = name;
			f.definition = def;
			f.begin = decl_start;
			while (f.begin < i && std::isspace(static_cast<unsigned char>(code[f.begin]))) f.begin++;
			if (def) {
				const std::size_t body_end = scan.match(k);
				if (body_end == std::string::npos) return std::nullopt;
				f.end = body_end + 1;
			} else f.end = k + 1;
			f.params = split_params(code, j, close);
			f.line = 1;
			for (std::size_t p = 0; p < f.begin; p++) f.line += text[p] == '\n';
			return f;
		}
	}
	return std::nullopt;
}

}  // namespace

std::optional<CFunction> find_definition(const std::string &text, const std::string &name) {
	return find(text, name, true);
}

std::optional<CFunction> find_declaration(const std::string &text, const std::string &name) {
	return find(text, name, false);
}

std::string param_name(const std::string &p) {
	std::size_t e = p.size();
	while (e > 0 && !ident_char(p[e - 1])) e--;
	std::size_t b = e;
	while (b > 0 && ident_char(p[b - 1])) b--;
	return p.substr(b, e - b);
}

std::size_t line_of(const std::string &text, std::size_t at) {
	std::size_t line = 1;
	for (std::size_t p = 0; p < at && p < text.size(); p++) line += text[p] == '\n';
	return line;
}

std::vector<CCall> find_calls(const std::string &text, const std::string &name, std::size_t from, std::size_t to) {
	const std::string code = blank_comments_and_literals(text);
	Scan scan(code);
	std::vector<CCall> out;
	to = std::min(to, code.size());
	for (std::size_t i = code.find(name, from); i != std::string::npos && i < to; i = code.find(name, i + 1)) {
		if ((i > 0 && ident_char(code[i - 1])) || (i + name.size() < code.size() && ident_char(code[i + name.size()])))
			continue;
		std::size_t j = i + name.size();
		while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) j++;
		if (j >= code.size() || code[j] != '(') continue;
		const std::size_t close = scan.match(j);
		if (close == std::string::npos) break;
		CCall c;
		c.at = i;
		c.line = line_of(text, i);
		c.args = split_params(code, j, close);
		out.push_back(std::move(c));
	}
	return out;
}

std::string extract_function(const std::string &text, const CFunction &f, const std::string &path) {
	return "#line " + std::to_string(f.line) + " \"" + path + "\"\n" +
	       text.substr(f.begin, f.end - f.begin) + "\n";
}

}  // namespace niov::kernel
