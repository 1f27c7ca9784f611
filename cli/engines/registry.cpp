// The engines, one line each, in the order `all` runs them and `mutants`
// prints its columns.  A new engine is a file in this folder defining
// `Engine NAME_engine()` and one X(NAME) line below.
#include <fmt/format.h>

#include "engines/engine.hpp"
#include "replay_command.hpp"

#define NIOV_ENGINES(X) \
	X(replay)       \
	X(props)        \
	X(fuzz)         \
	X(proof)        \
	X(faults)

namespace niov::cli {

#define NIOV_DECLARE(name) Engine name##_engine();
NIOV_ENGINES(NIOV_DECLARE)
#undef NIOV_DECLARE

const std::vector<Engine> &registry() {
#define NIOV_ENTRY(name) name##_engine(),
	static const std::vector<Engine> engines{NIOV_ENGINES(NIOV_ENTRY)};
#undef NIOV_ENTRY
	return engines;
}

const Engine *find_engine(std::string_view name) {
	for (const auto &e : registry())
		if (name == e.name)
			return &e;
	return nullptr;
}

std::string engine_list(bool scoreboard) {
	std::string out;
	for (const auto &e : registry())
		if (!scoreboard || e.hunt)
			out += fmt::format("{}{}", out.empty() ? "" : ", ", e.name);
	return out;
}

std::string EngineInput::replay_command(const std::string &file, bool model_only) const {
	return model_only ? replay_command_line(niovcheck, file, "", "")
			  : replay_command_line(niovcheck, file, plugin, rules.flags());
}

}  // namespace niov::cli
