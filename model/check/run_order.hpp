// Sorting what an allocator handed out, in linear time for the orders
// allocators use.  gen_pool (one chunk per sg entry, the last entry's chunk
// searched first, first fit inside a chunk) hands out rising runs, each
// wholly below the run before it; a freelist stack hands out falling ones
// (runs of one).  The RX sweep sorts two rounds of up to 4,097 niovs per
// fuzz input, where a comparison sort was 8 % of the ASan bind target.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace niov {

// Sorts @v ascending: in place in O(n) when it is a sequence of rising
// runs each strictly below the one before (one run: already sorted), by
// std::sort otherwise.
template <typename T>
void sort_falling_runs(std::vector<T> &v) {
	const size_t n = v.size();
	size_t run = 0, prev_run = n;  // first index of the current and the previous run
	for (size_t i = 1; i <= n; ++i) {
		if (i < n && !(v[i] < v[i - 1]))
			continue;
		// The run [run, i) ended: it must lie wholly below the one before.
		if (prev_run != n && !(v[i - 1] < v[prev_run])) {
			std::sort(v.begin(), v.end());
			return;
		}
		prev_run = run;
		run = i;
	}
	if (prev_run == 0)
		return;  // one run
	// Reversed, the runs come in rising order, each falling inside: turn
	// each one around.
	std::reverse(v.begin(), v.end());
	size_t start = 0;
	for (size_t i = 1; i <= n; ++i)
		if (i == n || v[i - 1] < v[i]) {
			std::reverse(v.begin() + static_cast<ptrdiff_t>(start), v.begin() + static_cast<ptrdiff_t>(i));
			start = i;
		}
}

}  // namespace niov
