#include "plugin_load.hpp"

namespace niov {

std::unique_ptr<PluginImpl> load_plugin(const std::string &path, const worker::Limits &lim) {
	if (!lim.in_process) {
		const worker::Outcome o = worker::run([&path] {
			const PluginImpl probe(path);
			return std::string();
		}, lim);
		if (o.end == worker::End::error)  // the loader's own PluginError
			throw PluginError(o.fault);
		if (!o.ok())
			throw PluginLoadFault(o.id(), o.id() + ": " + path + " died while loading: " + o.what());
	}
	return std::make_unique<PluginImpl>(path);
}

}  // namespace niov
