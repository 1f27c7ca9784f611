// What the model's unit tests share: a scenario from text (a parse error is
// a test failure) and the sorted invariant ids a trace violated.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "report.hpp"

namespace niov::test {

inline Scenario parse(const std::string &text, const char *file = "test.scn") {
	auto r = parse_scenario(text, file);
	EXPECT_TRUE(r.scenario) << r.error.message;
	return r.scenario ? *r.scenario : Scenario{};
}

inline std::vector<std::string> ids(const Trace &t) {
	std::vector<std::string> v;
	for (const auto &x : t.violations)
		v.push_back(x.invariant);
	std::sort(v.begin(), v.end());
	v.erase(std::unique(v.begin(), v.end()), v.end());
	return v;
}

}  // namespace niov::test
