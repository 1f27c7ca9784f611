#include "target.hpp"

#include <fstream>
#include <sstream>

#include "findings.hpp"

namespace niov::props {

Impl *Target::impl_for(const Scenario &sc) const {
	if (policies_overridden(sc))
		return nullptr;
	return impl[static_cast<size_t>(sc.cfg.preset)];
}

std::string Target::impl_path_for(const Scenario &sc) const {
	if (!impl_for(sc))
		return {};
	return impl_path[static_cast<size_t>(sc.cfg.preset)];
}

Preset plugin_preset(const PluginImpl &p) { return plugin_rules(p); }

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

LoadedTarget load_target(const std::string &impl_path, const std::string &plugins_list) {
	LoadedTarget lt;
	auto add = [&lt](const std::string &path) {
		lt.plugins.push_back(std::make_unique<PluginImpl>(path));
		const Preset p = plugin_preset(*lt.plugins.back());
		lt.target.impl[static_cast<size_t>(p)] = lt.plugins.back().get();
		lt.target.impl_path[static_cast<size_t>(p)] = path;
		return p;
	};
	if (!impl_path.empty()) {
		lt.target.space.presets = {add(impl_path)};
		lt.target.allow_overrides = false;
		return lt;
	}
	for (const auto &e : read_plugin_list(plugins_list))
		if (e.kind == "kernel")
			add(e.path);
	return lt;
}

}  // namespace niov::props
