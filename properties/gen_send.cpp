#include "gen_send.hpp"

#include <algorithm>

#include "boundary.hpp"
#include "oracle.hpp"

namespace niov::props {

namespace {

constexpr uint64_t kFragBudget = 512;
constexpr uint64_t kSkbBudget = 64;  // a 3 MiB send at size_goal 65160 still fits

// Offsets worth starting or ending at (the dmabuf's ends and middle, every
// segment boundary of the first 64) and units whose multiples are niov
// boundaries for some binding of the table.  Computed once per send.
struct Marks {
	std::vector<uint64_t> points;
	std::vector<uint64_t> units;

	explicit Marks(const Scenario &sc) {
		points = {0, sc.dmabuf_size, sc.dmabuf_size / 2};
		uint64_t at = 0;
		for (size_t i = 0; i < sc.segs.size() && i < 64; ++i) {
			at += sc.segs[i].len;
			points.push_back(at);
		}
		const uint64_t n = oracle::tx_niov_size(TxNiov::autosize, sc.cfg.page_shift, sc.dmabuf_size, sc.segs,
							 sc.cfg.policy.tx_niov_max_shift);
		units = {n, sc.cfg.page_size(), 65536, kSZ2M};
	}
};

rc::Gen<uint64_t> gen_offset(const Scenario &sc, const Marks &m) {
	const uint64_t page = sc.cfg.page_size();
	const uint64_t size = sc.dmabuf_size;
	return weighted<uint64_t>({
		{4, rc::gen::mapcat(rc::gen::elementOf(m.points),
				    [page](uint64_t p) { return around(p, page); })},
		{3, rc::gen::mapcat(rc::gen::elementOf(m.units),
				    [size, page](uint64_t u) {
					    return multiple_around(u, std::min<uint64_t>(size / u + 1, 1u << 20), page);
				    })},
		{3, uniform<uint64_t>(0, std::max<uint64_t>(size, 1))},
		{1, edge_u64(page)},
	});
}

rc::Gen<uint64_t> gen_length(const Scenario &sc, const Marks &m, uint64_t base) {
	const Config &cfg = sc.cfg;
	const uint64_t page = cfg.page_size();
	std::vector<uint64_t> ends = m.points;
	for (uint64_t u : m.units)
		ends.push_back((base / u + 1) * u);  // the next niov boundary
	return weighted<uint64_t>({
		{4, uniform<uint64_t>(1, 2 * page + 1)},
		{3, rc::gen::mapcat(rc::gen::elementOf(ends),
				    [base, page](uint64_t e) { return around(e - base, page); })},
		{2, pick<uint64_t>({cfg.size_goal, cfg.size_goal - 1, cfg.size_goal + 1,
					       2 * uint64_t{cfg.size_goal}, 3 * (uint64_t{1} << 20)})},
		{1, edge_u64(page)},
		{1, rc::gen::just<uint64_t>(0)},
	});
}

}  // namespace

uint64_t send_budget(const Scenario &sc) {
	// A frag ends at a lookup granule, the device's max frag or the skb's
	// end, whichever comes first; budget that many of the smallest.  And
	// at most kSkbBudget skbs: the model frees acked skbs from the front
	// of a vector, quadratic in the queue length.
	const auto b = oracle::bind(sc);
	const unsigned gran = oracle::lookup_shift(sc.cfg, b.err ? sc.cfg.page_shift : b.shift);
	const uint64_t unit = std::min({uint64_t{1} << gran, oracle::tx_max_frag(sc.cfg), uint64_t{sc.cfg.size_goal}});
	return std::min(kFragBudget * std::max<uint64_t>(unit, 1), kSkbBudget * sc.cfg.size_goal);
}

rc::Gen<Op> gen_send(const Scenario &sc) {
	return rc::gen::exec([sc] {
		Op op;
		op.kind = OpKind::send;
		const size_t n = *weighted<size_t>({
			{12, rc::gen::just<size_t>(1)},
			{4, uniform<size_t>(2, 5)},
			{2, uniform<size_t>(5, 33)},
			{1, rc::gen::just<size_t>(1025)},  // past UIO_MAXIOV
		});
		// Elements of one send often continue each other.
		const Marks marks(sc);
		uint64_t next = *gen_offset(sc, marks);
		for (size_t i = 0; i < n; ++i) {
			IovElem e;
			e.base = n > 64 || *coin() ? next : *gen_offset(sc, marks);
			e.len = n > 64 ? *uniform<uint64_t>(0, 3) : *gen_length(sc, marks, e.base);
			next = e.base + e.len;
			op.iov.push_back(e);
		}
		// Keep the walk inside the budget: length= truncates the iterator
		// after import_iovec has capped (or refused) the elements.
		uint64_t total = 0;
		for (const auto &e : op.iov)
			total = e.len > UINT64_MAX - total ? UINT64_MAX : total + e.len;
		const uint64_t budget = send_budget(sc);
		if (total > budget || *weighted_pick<bool>({{15, false}, {1, true}}))
			op.length = *weighted<uint64_t>({
				{3, uniform<uint64_t>(0, budget + 1)},
				{1, pick<uint64_t>({budget, std::min<uint64_t>(budget, sc.cfg.size_goal),
						    std::min<uint64_t>(budget, sc.cfg.size_goal + 1), 0})},
			});
		return op;
	});
}

rc::Gen<uint64_t> gen_tcp_amount(const Config &cfg) {
	const uint64_t goal = cfg.size_goal;
	return weighted<uint64_t>({
		{3, uniform<uint64_t>(1, 2 * goal + 2)},
		{2, pick<uint64_t>({1, cfg.mss, 6 * uint64_t{cfg.mss}, goal - 1, goal, goal + 1})},
		{1, edge_u64(cfg.page_size())},
	});
}

}  // namespace niov::props
