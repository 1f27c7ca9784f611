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

uint64_t draw_offset(const Scenario &sc, const Marks &m) {
	const uint64_t page = sc.cfg.page_size();
	const uint64_t size = sc.dmabuf_size;
	auto element = [](const std::vector<uint64_t> &v) { return v[*uniform<size_t>(0, v.size())]; };
	switch (draw_choice({4, 3, 3, 1})) {
	case 0:
		return draw_around(element(m.points), page);
	case 1: {
		const uint64_t u = element(m.units);
		return draw_multiple_around(u, std::min<uint64_t>(size / u + 1, 1u << 20), page);
	}
	case 2:
		return *uniform<uint64_t>(0, std::max<uint64_t>(size, 1));
	default:
		return draw_edge_u64(page);
	}
}

uint64_t draw_length(const Scenario &sc, const Marks &m, uint64_t base) {
	const Config &cfg = sc.cfg;
	const uint64_t page = cfg.page_size();
	switch (draw_choice({4, 3, 2, 1, 1})) {
	case 0:
		return *uniform<uint64_t>(1, 2 * page + 1);
	case 1: {
		// A dmabuf mark, or the next niov boundary of one of the units.
		const size_t i = *uniform<size_t>(0, m.points.size() + m.units.size());
		const uint64_t e = i < m.points.size() ? m.points[i]
						       : (base / m.units[i - m.points.size()] + 1) * m.units[i - m.points.size()];
		return draw_around(e - base, page);
	}
	case 2: {
		const uint64_t v[] = {cfg.size_goal, cfg.size_goal - 1, cfg.size_goal + 1, 2 * uint64_t{cfg.size_goal},
				      3 * (uint64_t{1} << 20)};
		return v[*uniform<size_t>(0, 5)];
	}
	case 3:
		return draw_edge_u64(page);
	default:
		return 0;
	}
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

Op draw_send(const Scenario &sc) {
	Op op;
	op.kind = OpKind::send;
	static constexpr size_t kFew[] = {1, 0, 0, 1025};  // 1025: past UIO_MAXIOV
	const size_t branch = draw_choice({12, 4, 2, 1});
	const size_t n = branch == 1 ? *uniform<size_t>(2, 5) : branch == 2 ? *uniform<size_t>(5, 33) : kFew[branch];
	// Elements of one send often continue each other.  A send past
	// UIO_MAXIOV fails on its count: its lengths (0..2) come from a seed.
	const Marks marks(sc);
	uint64_t next = draw_offset(sc, marks);
	SplitMix64 lens{n > 64 ? *rc::gen::arbitrary<uint64_t>() : 0};
	op.iov.reserve(n);
	for (size_t i = 0; i < n; ++i) {
		IovElem e;
		e.base = n > 64 || *coin() ? next : draw_offset(sc, marks);
		e.len = n > 64 ? lens.next() % 3 : draw_length(sc, marks, e.base);
		next = e.base + e.len;
		op.iov.push_back(e);
	}
	// Keep the walk inside the budget: length= truncates the iterator
	// after import_iovec has capped (or refused) the elements.
	uint64_t total = 0;
	for (const auto &e : op.iov)
		total = e.len > UINT64_MAX - total ? UINT64_MAX : total + e.len;
	const uint64_t budget = send_budget(sc);
	if (total > budget || draw_choice({15, 1}) == 1) {
		if (draw_choice({3, 1}) == 0) {
			op.length = *uniform<uint64_t>(0, budget + 1);
		} else {
			const uint64_t v[] = {budget, std::min<uint64_t>(budget, sc.cfg.size_goal),
					      std::min<uint64_t>(budget, sc.cfg.size_goal + 1), 0};
			op.length = v[*uniform<size_t>(0, 4)];
		}
	}
	return op;
}

rc::Gen<Op> gen_send(const Scenario &sc) {
	return rc::gen::exec([sc] { return draw_send(sc); });
}

uint64_t draw_tcp_amount(const Config &cfg) {
	const uint64_t goal = cfg.size_goal;
	switch (draw_choice({3, 2, 1})) {
	case 0:
		return *uniform<uint64_t>(1, 2 * goal + 2);
	case 1: {
		const uint64_t v[] = {1, cfg.mss, 6 * uint64_t{cfg.mss}, goal - 1, goal, goal + 1};
		return v[*uniform<size_t>(0, 6)];
	}
	default:
		return draw_edge_u64(cfg.page_size());
	}
}

rc::Gen<uint64_t> gen_tcp_amount(const Config &cfg) {
	return rc::gen::exec([cfg] { return draw_tcp_amount(cfg); });
}

}  // namespace niov::props
