// Text a plugin chose (its name, its description) as it may reach a
// terminal or a TAP/JUnit consumer: control bytes shown as \xNN, never
// sent raw (an escape sequence could rewrite what the reader sees).
#pragma once

#include <string>
#include <string_view>

namespace niov::cli {

inline std::string printable(std::string_view s) {
	static constexpr char kHex[] = "0123456789abcdef";
	std::string out;
	for (const char c : s) {
		const auto u = static_cast<unsigned char>(c);
		if (u < 0x20 || u == 0x7f) {
			out += "\\x";
			out += kHex[u >> 4];
			out += kHex[u & 15];
		} else {
			out += c;
		}
	}
	return out;
}

}  // namespace niov::cli
