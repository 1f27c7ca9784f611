// Loading a plugin without trusting it: dlopen() and niov_impl_get() run
// first in a worker (a constructor or a get that crashes or exits takes
// only the worker down), then here, where the engines fork their jobs from.
#pragma once

#include <memory>
#include <string>

#include "plugin.hpp"
#include "worker.hpp"

namespace niov {

// The plugin died while it was being loaded (its constructor or its
// niov_impl_get crashed, hung or exited): a finding about the plugin, not
// bad input.
struct PluginLoadFault : PluginError {
	PluginLoadFault(std::string id_, const std::string &what) : PluginError(what), id(std::move(id_)) {}
	std::string id;
};

// The limits of the load itself: a constructor that never returns runs in no
// plugin call the op watchdog sees, so the whole load gets the time of one
// call when no job limit is set.
worker::Limits load_limits(const worker::Limits &lim);

// Throws PluginError unless @path is a regular file (after symlinks): a
// FIFO would block dlopen, a device is no plugin.
void check_plugin_file(const std::string &path);

// Throws PluginError (one line: exit 2) when the plugin cannot be used, and
// PluginLoadFault ("killed by SIGSEGV in niov_impl_get") when it dies trying.
std::unique_ptr<PluginImpl> load_plugin(const std::string &path, const worker::Limits &lim = {});

}  // namespace niov
