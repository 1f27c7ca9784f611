// Concrete views of a scenario for the generic rules.
#pragma once

#include <vector>

#include "rules.hpp"
#include "scenario.hpp"
#include "word.hpp"

namespace niov {

using CSeg = rules::Seg<Concrete>;

inline std::vector<CSeg> concrete_segs(const Scenario &sc) {
	std::vector<CSeg> out;
	out.reserve(sc.segs.size());
	for (const auto &s : sc.segs)
		out.push_back({s.addr, s.len});
	return out;
}

}  // namespace niov
