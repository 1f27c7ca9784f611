// What the property test binaries share: the run parameters from the
// environment and the plugins, loaded once per process.
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "runner.hpp"
#include "target.hpp"

namespace niov::props::test {

inline RunParams env_params() {
	RunParams rp;
	rp.failure_dir = NIOV_DEFAULT_FAILURE_DIR;
	rp.niovcheck = NIOV_DEFAULT_CLI;
	std::string err;
	if (!params_from_env(rp, err))
		ADD_FAILURE() << err;
	return rp;
}

// $NIOV_IMPL, else the kernel-shaped plugin of each preset.
inline const Target &default_target() {
	static LoadedTarget lt = [] {
		const char *impl = std::getenv("NIOV_IMPL");
		return load_target(impl ? impl : "", NIOV_PLUGINS_LIST);
	}();
	return lt.target;
}

// gtest parameter names: letters, digits and underscores.
inline std::string param_name(std::string s) {
	for (char &c : s)
		if (!std::isalnum(static_cast<unsigned char>(c)))
			c = '_';
	return s;
}

}  // namespace niov::props::test
