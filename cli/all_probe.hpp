// What `niovcheck all` needs to know of the plugin before its engines run
// (its name, whether it is a variant, the rules it is judged by), learnt in
// a worker: the plugin's constructor and niov_impl_get are its code too, and
// one that exits, crashes or loops there must cost a finding, not the run.
#pragma once

#include <optional>
#include <string>

#include "all_types.hpp"
#include "worker.hpp"

namespace niov::cli {

struct PluginFacts {
	std::string name;
	std::string must_catch;
	RulesInForce rules;
};

struct PluginProbe {
	std::optional<PluginFacts> facts;
	std::optional<Observation> died;  // the plugin died while being loaded (engine "load")
};

// Throws PluginError or RulesError (one line, exit 2) for a plugin that
// cannot be used or rules that cannot be resolved; a plugin that dies
// while loading is @died, with a replay command that shows it again.
PluginProbe probe_plugin(const std::string &plugin, const RulesRequest &request, const worker::Limits &lim,
			 const std::string &niovcheck, const std::string &source_dir);

}  // namespace niov::cli
