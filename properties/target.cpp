#include "target.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "findings.hpp"
#include "plugin_load.hpp"

namespace niov::props {

Impl *Target::impl_for(const Scenario &sc) const {
	if (policies_overridden(sc))
		return nullptr;
	return impl[static_cast<size_t>(sc.cfg.preset)];
}

RunReport Target::run(const Scenario &sc, Sweep sweep) const {
	RunOptions opts;
	opts.explain_bind = false;
	// Bounded by niovs x sg entries, what gen_pool's chunk walks cost: a
	// table of a few entries is swept up to kSweepMaxNiovs, one of hundreds
	// of single pages (each its own chunk) only when it is small.
	const uint64_t entries = std::max<uint64_t>(1, sc.segs.size());
	opts.rx_sweep_max_niovs = sweep == Sweep::skip ? 0 : std::min(kSweepMaxNiovs, kSweepMaxWork / entries);
	return run_scenario(sc, impl_for(sc), opts);
}

std::string Target::impl_path_for(const Scenario &sc) const {
	if (!impl_for(sc))
		return {};
	return impl_path[static_cast<size_t>(sc.cfg.preset)];
}

Preset plugin_preset(const PluginImpl &p) { return resolve_rules({}, &p).preset; }

uint32_t Target::caps() const {
	uint32_t c = 0;
	bool any = false;
	for (Preset p : space.presets)
		if (const Impl *i = impl[static_cast<size_t>(p)]) {
			c |= i->caps();
			any = true;
		}
	return any ? c : kAllPaths;
}

bool Target::has_resources() const {
	for (Preset p : space.presets)
		if (const Impl *i = impl[static_cast<size_t>(p)]; i && i->resources())
			return true;
	return false;
}

std::vector<PluginListEntry> read_plugin_list(const std::string &path) {
	std::vector<PluginListEntry> out;
	std::ifstream f(path);
	std::string line;
	while (std::getline(f, line)) {
		std::istringstream is(line);
		PluginListEntry e;
		if (is >> e.kind >> e.target >> e.path)
			out.push_back(e);
	}
	return out;
}

LoadedTarget load_target(const std::string &impl_path, const std::string &plugins_list,
			 const RulesRequest &rules, const worker::Limits &lim) {
	LoadedTarget lt;
	auto add = [&lt](std::unique_ptr<PluginImpl> plugin, const std::string &path, Preset p) {
		lt.plugins.push_back(std::move(plugin));
		lt.target.impl[static_cast<size_t>(p)] = lt.plugins.back().get();
		// Absolute, so the replay commands work from any folder.
		std::error_code ec;
		lt.target.impl_path[static_cast<size_t>(p)] = std::filesystem::absolute(path, ec).string();
	};
	if (!impl_path.empty() || rules.given()) {
		std::unique_ptr<PluginImpl> plugin;
		if (!impl_path.empty())
			plugin = load_plugin(impl_path, lim);
		const RulesInForce r = resolve_rules(rules, plugin.get());
		if (plugin)
			add(std::move(plugin), impl_path, r.preset);
		lt.target.space.presets = {r.preset};
		if (r.policies != preset_policies(r.preset))
			lt.target.space.declared = r.policies;
		lt.target.allow_overrides = false;
		lt.rules = r;
		return lt;
	}
	for (const auto &e : read_plugin_list(plugins_list))
		if (e.kind == "kernel") {
			auto plugin = load_plugin(e.path, lim);
			const Preset p = plugin_preset(*plugin);
			add(std::move(plugin), e.path, p);
		}
	return lt;
}

}  // namespace niov::props
