#include "boundary.hpp"

#include <algorithm>
#include <map>

namespace niov::props {

const std::vector<uint64_t> &edge_values(uint64_t page) {
	// One list per page size, built once: the generators run it per case.
	static std::map<uint64_t, std::vector<uint64_t>> cache;
	auto &v = cache[page];
	if (!v.empty())
		return v;
	v = {0, 1, 2, 7, page - 1, page, page + 1, 2 * page - 1, 2 * page, 4095, 4096, 4097,
	     16383, 16384, 16385, 32767, 32768, 65535, 65536, 65537, kSZ2M - 1, kSZ2M, kSZ2M + 1,
	     2 * kSZ2M, kIntMax - 1, kIntMax, kIntMax + 1, kU32Max - 1, kU32Max, kU32Max + 1,
	     kU32Max + 2, (uint64_t{1} << 44), uint64_t{1} << 63, UINT64_MAX - page + 1,
	     UINT64_MAX - 1, UINT64_MAX};
	// Keep the first occurrence: the order is the shrink order.
	std::vector<uint64_t> out;
	for (uint64_t x : v)
		if (std::find(out.begin(), out.end(), x) == out.end())
			out.push_back(x);
	v = std::move(out);
	return v;
}

size_t draw_choice(std::initializer_list<size_t> weights) {
	size_t total = 0;
	for (size_t w : weights)
		total += w;
	size_t x = *uniform<size_t>(0, total), i = 0;
	for (size_t w : weights) {
		if (x < w)
			return i;
		x -= w;
		++i;
	}
	return i - 1;
}

uint64_t draw_edge_u64(uint64_t page) {
	if (draw_choice({3, 1}) == 0) {
		const auto &v = edge_values(page);
		return v[*uniform<size_t>(0, v.size())];
	}
	const unsigned k = *uniform(0u, 64u);
	static constexpr int kDelta[] = {0, -1, 1};
	return (uint64_t{1} << k) + static_cast<uint64_t>(kDelta[*uniform<size_t>(0, 3)]);
}

uint64_t draw_around(uint64_t v, uint64_t page) {
	const uint64_t d[] = {0, UINT64_MAX, 1, 0 - page, page};
	return v + d[*uniform<size_t>(0, 5)];
}

uint64_t draw_multiple_around(uint64_t unit, uint64_t max_mult, uint64_t page) {
	return draw_around(*uniform<uint64_t>(0, max_mult + 1) * unit, page);
}

rc::Gen<uint64_t> edge_u64(uint64_t page) {
	return rc::gen::exec([page] { return draw_edge_u64(page); });
}

rc::Gen<uint64_t> around(uint64_t v, uint64_t page) {
	return rc::gen::exec([v, page] { return draw_around(v, page); });
}

rc::Gen<uint64_t> multiple_around(uint64_t unit, uint64_t max_mult, uint64_t page) {
	return rc::gen::exec([unit, max_mult, page] { return draw_multiple_around(unit, max_mult, page); });
}

}  // namespace niov::props
