#include "plugin_load.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "bounded_file.hpp"

namespace niov {

void check_plugin_file(const std::string &path) {
	struct stat st {};
	if (::stat(path.c_str(), &st) != 0)
		throw PluginError(fmt::format("{}: cannot load plugin: {}", path, std::strerror(errno)));
	if (!S_ISREG(st.st_mode))
		throw PluginError(fmt::format("{}: {}, not a regular file: no plugin", path, file_kind(st.st_mode)));
}

worker::Limits load_limits(const worker::Limits &lim) {
	worker::Limits l = lim;
	if (l.job_seconds == 0)
		l.job_seconds = l.op_seconds;
	return l;
}

std::unique_ptr<PluginImpl> load_plugin(const std::string &path, const worker::Limits &lim) {
	check_plugin_file(path);
	if (!lim.in_process) {
		const worker::Outcome o = worker::run([&path] {
			const PluginImpl probe(path);
			return std::string();
		}, load_limits(lim));
		if (o.end == worker::End::error)  // the loader's own PluginError
			throw PluginError(o.fault);
		if (!o.ok())
			throw PluginLoadFault(o.id(), o.id() + ": " + path + " died while loading: " + o.what());
	}
	return std::make_unique<PluginImpl>(path);
}

}  // namespace niov
