// What the property test binaries share: the run parameters from the
// environment and the plugins, loaded once per process.
#pragma once

#include <cstdlib>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "report.hpp"
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

// The kernel-shaped plugin of each preset.  Never $NIOV_IMPL: the suite's
// own tests name the plugins they want (`niovcheck props --impl` runs the
// properties against another).
inline const Target &default_target() {
	static LoadedTarget lt = load_target("", NIOV_PLUGINS_LIST);
	return lt.target;
}

// gtest parameter names: letters, digits and underscores.
inline std::string param_name(std::string s) {
	for (char &c : s)
		if (!std::isalnum(static_cast<unsigned char>(c)))
			c = '_';
	return s;
}

// Every invariant a run reported, model and plugin together.
inline std::set<std::string> violation_ids(const RunReport &r) {
	std::set<std::string> s;
	for (const auto &v : r.model.violations)
		s.insert(v.invariant);
	if (r.impl)
		for (const auto &v : r.impl->violations)
			s.insert(v.invariant);
	return s;
}

// "a,b,c", or "none".
inline std::string joined(const std::set<std::string> &s) {
	std::string out;
	for (const auto &x : s)
		out += (out.empty() ? "" : ",") + x;
	return out.empty() ? "none" : out;
}

}  // namespace niov::props::test
