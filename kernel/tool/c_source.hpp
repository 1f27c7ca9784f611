// Reading kernel C without compiling it: blank out comments and literals
// (keeping every offset and newline), find a function's definition or
// prototype at file scope, and split its parameter list.  Used by the era
// probe (signatures, not version numbers) and the function extractor.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace niov::kernel {

// @text with comments, string and character literals replaced by spaces
// (newlines kept), so braces and parentheses inside them do not count.
std::string blank_comments_and_literals(const std::string &text);

struct CFunction {
	std::string name;
	std::size_t begin = 0;	// start of the declaration (after the previous ';', '}' or directive)
	std::size_t end = 0;	// one past the closing '}' (definition) or the ';' (prototype)
	std::size_t line = 1;	// 1-based line of @begin
	bool definition = false;
	std::vector<std::string> params;  // each parameter, whitespace squeezed
};

// The first file-scope definition of @name in @text (nullopt if none).
std::optional<CFunction> find_definition(const std::string &text, const std::string &name);
// The first file-scope declaration or definition of @name.
std::optional<CFunction> find_declaration(const std::string &text, const std::string &name);

// A call of @name found in @text between @from and @to: its arguments
// (top-level commas, whitespace squeezed) and where it starts.
struct CCall {
	std::size_t at = 0;	// offset of the name
	std::size_t line = 1;	// its 1-based line
	std::vector<std::string> args;
};

// Every call of @name in [@from, @to) of @text, comments and literals
// ignored, in order.
std::vector<CCall> find_calls(const std::string &text, const std::string &name, std::size_t from = 0,
			      std::size_t to = std::string::npos);

// The name a parameter declares ("unsigned int dmabuf_fd" -> "dmabuf_fd").
std::string param_name(const std::string &param);

// The 1-based line of offset @at in @text.
std::size_t line_of(const std::string &text, std::size_t at);

// The text of @f in @text, preceded by a #line directive naming @path, so
// a compiler (and a sanitizer) reports the tree's own file and line.
std::string extract_function(const std::string &text, const CFunction &f, const std::string &path);

}  // namespace niov::kernel
