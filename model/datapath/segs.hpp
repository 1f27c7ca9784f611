// Concrete views of a scenario for the generic rules.
#pragma once

#include <vector>

#include "buffer_stash.hpp"
#include "rules.hpp"
#include "scenario.hpp"
#include "word.hpp"

namespace niov {

using CSeg = rules::Seg<Concrete>;

// Its storage comes from, and goes back to, the thread's BufferStash: the
// fuzz targets convert the table a few times per input.
inline StashedVector<CSeg> concrete_segs(const Scenario &sc) {
	StashedVector<CSeg> out;
	reuse_kept(out, sc.segs.size());
	for (const auto &s : sc.segs)
		out.push_back({s.addr, s.len});
	return out;
}

}  // namespace niov
