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

rc::Gen<uint64_t> edge_u64(uint64_t page) {
	return weighted<uint64_t>({
		{3, rc::gen::elementOf(edge_values(page))},
		{1, rc::gen::apply(
			    [](unsigned k, int d) { return (uint64_t{1} << k) + static_cast<uint64_t>(d); },
			    uniform(0u, 64u), rc::gen::element(0, -1, 1))},
	});
}

rc::Gen<uint64_t> around(uint64_t v, uint64_t page) {
	return rc::gen::map(pick<uint64_t>({0, UINT64_MAX, 1, 0 - page, page}),
			    [v](uint64_t d) { return v + d; });
}

rc::Gen<uint64_t> multiple_around(uint64_t unit, uint64_t max_mult, uint64_t page) {
	return rc::gen::mapcat(uniform<uint64_t>(0, max_mult + 1),
			       [unit, page](uint64_t k) { return around(k * unit, page); });
}

}  // namespace niov::props
