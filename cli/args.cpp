#include "args.hpp"

#include <fmt/format.h>

#include "scenario.hpp"

namespace niov::cli {

Args::Args(int argc, char **argv, int first) {
	for (int i = first; i < argc; ++i)
		a_.emplace_back(argv[i]);
	used_.assign(a_.size(), false);
}

bool Args::flag(const std::string &name) {
	for (size_t i = 0; i < a_.size(); ++i)
		if (!used_[i] && a_[i] == "--" + name) {
			used_[i] = true;
			return true;
		}
	return false;
}

std::string Args::option(const std::string &name, std::string def) {
	for (size_t i = 0; i < a_.size(); ++i) {
		if (used_[i])
			continue;
		if (a_[i] == "--" + name) {
			if (i + 1 >= a_.size())
				throw UsageError(fmt::format("--{} needs a value", name));
			used_[i] = used_[i + 1] = true;
			return a_[i + 1];
		}
		if (a_[i].rfind("--" + name + "=", 0) == 0) {
			used_[i] = true;
			return a_[i].substr(name.size() + 3);
		}
	}
	return def;
}

std::vector<std::string> Args::options(const std::string &name) {
	std::vector<std::string> out;
	for (std::string v; !(v = option(name, "")).empty();)
		out.push_back(std::move(v));
	return out;
}

uint64_t Args::number(const std::string &name, uint64_t def) {
	const std::string v = option(name, "");
	if (v.empty())
		return def;
	uint64_t out;
	if (!parse_number(v, out))
		throw UsageError(fmt::format("--{}: '{}' is not a number", name, v));
	return out;
}

std::vector<std::string> Args::positional() {
	std::vector<std::string> out;
	for (size_t i = 0; i < a_.size(); ++i) {
		if (used_[i])
			continue;
		if (a_[i].rfind("--", 0) == 0)
			throw UsageError(fmt::format("unknown option '{}'", a_[i]));
		used_[i] = true;
		out.push_back(a_[i]);
	}
	return out;
}

void Args::done() {
	for (size_t i = 0; i < a_.size(); ++i)
		if (!used_[i])
			throw UsageError(fmt::format("unexpected argument '{}'", a_[i]));
}

}  // namespace niov::cli
