// What the properties run against: the configurations the generators may
// produce and the implementation that answers for each preset (the model
// always answers too; every property compares).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "gen_config.hpp"
#include "plugin.hpp"
#include "report.hpp"
#include "rules_in_force.hpp"
#include "worker.hpp"

namespace niov::props {

struct Target {
	ConfigSpace space;
	// Per preset (indexed by Preset); nullptr: only the model answers.
	std::array<Impl *, kNumPresets> impl{};
	std::array<std::string, kNumPresets> impl_path{};
	// Single-policy overrides may be generated (model-only cases) for the
	// properties whose invariant holds under every policy.
	bool allow_overrides = true;

	// The implementation for this scenario: none when its policies are
	// not its preset's (a plugin implements one preset exactly).
	Impl *impl_for(const Scenario &sc) const;
	std::string impl_path_for(const Scenario &sc) const;
	// The scenario through the model and impl_for(sc).  Properties judge
	// violations and differences, so the bind's worded explanation (a
	// fifth of a small case) is left out; a failing case's replay shows it.
	// The RX allocator sweep (every niov handed out and freed, twice) runs
	// only for the properties that judge the allocator or what it leaves
	// behind: against code that allocates per niov (gen_pool's first fit
	// is linear per allocation) it was most of every RX case's time.
	enum class Sweep { skip, rx_allocator };
	// The properties' reach: the fuzz targets and the replays sweep up to
	// kRxSweepMaxNiovs; a case here sweeps up to this many.  gen_pool's
	// allocation and free walk the chunk list, one chunk per sg entry, so
	// sweeping the many-entry tables costs entries x niovs per case.
	static constexpr uint64_t kSweepMaxNiovs = 1024;
	static constexpr uint64_t kSweepMaxWork = 16384;  // niovs x sg entries
	RunReport run(const Scenario &sc, Sweep sweep = Sweep::skip) const;
	bool hunting() const { return space.forced.has_value(); }
	// The paths the implementations have (all of them when only the model
	// answers), and whether any keeps resource counters.
	uint32_t caps() const;
	bool has_resources() const;
};

// A target with the plugins it loaded.
struct LoadedTarget {
	std::vector<std::unique_ptr<PluginImpl>> plugins;
	Target target;
	std::optional<RulesInForce> rules;  // set when the run has one set of rules
};

// @impl_path given: that plugin, under the rules in force (@rules, else what
// the plugin declares: rules_in_force.hpp).  Otherwise, with @rules given,
// the model alone under them; else the kernel-shaped plugins listed in
// @plugins_list ("kernel|broken|example <target> <path>" lines), each for
// the preset it declares; a missing list leaves the model alone.
// Throws PluginError when a plugin cannot be loaded, RulesError when the
// rules are unknown or not declared.  Each plugin is loaded after a probe
// in a worker (plugin_load.hpp).
LoadedTarget load_target(const std::string &impl_path, const std::string &plugins_list,
			 const RulesRequest &rules = {}, const worker::Limits &lim = {});

// The preset a plugin answers for: the one it declares (RulesError if none).
Preset plugin_preset(const PluginImpl &p);

// The "kernel|broken <target> <path>" lines of a plugin list.
struct PluginListEntry {
	std::string kind, target, path;
};
std::vector<PluginListEntry> read_plugin_list(const std::string &path);

}  // namespace niov::props
