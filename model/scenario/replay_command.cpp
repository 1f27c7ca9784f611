#include "replay_command.hpp"

namespace niov {

namespace {

bool plain_char(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       std::string_view("-_./:=@%+,").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_quote(std::string_view s) {
	bool plain = !s.empty();
	for (char c : s)
		plain = plain && plain_char(c);
	if (plain)
		return std::string(s);
	std::string q = "'";
	for (char c : s)
		q += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
	return q + "'";
}

std::string replay_command_line(const std::string &cli, const std::string &file, const std::string &plugin,
				const std::string &flags) {
	std::string cmd = shell_quote(cli) + " replay " + shell_quote(file);
	if (!plugin.empty())
		cmd += " --impl " + shell_quote(plugin);
	if (!flags.empty())
		cmd += " " + flags;
	return cmd;
}

}  // namespace niov
