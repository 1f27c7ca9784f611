#include "gen_scenario.hpp"

#include "boundary.hpp"
#include "caps.hpp"
#include "gen_send.hpp"

namespace niov::props {

rc::Gen<std::optional<uint32_t>> gen_rx_buf_size(unsigned page_shift) {
	const uint32_t page = uint32_t{1} << page_shift;
	return weighted<std::optional<uint32_t>>({
		{2, rc::gen::just(std::optional<uint32_t>())},
		{5, rc::gen::map(uniform(0u, 23u - std::min(page_shift, 22u)),
				 [page](unsigned k) { return std::optional<uint32_t>(page << k); })},
		{2, rc::gen::map(pick<uint32_t>({0, page - 1, page + 1, page / 2, 3 * page,
							    32768, 65536, 1u << 31, UINT32_MAX, 1}),
				 [](uint32_t v) { return std::optional<uint32_t>(v); })},
	});
}

rc::Gen<Scenario> gen_scenario(const Shape &shape) {
	return rc::gen::exec([shape] {
		Scenario sc;
		sc.cfg = *gen_config(shape.space);
		std::vector<Dir> dirs;
		for (Dir d : shape.dirs) {
			Scenario probe;
			probe.dir = d;
			if ((bind_caps(probe) & ~shape.caps) == 0)
				dirs.push_back(d);
		}
		sc.dir = *rc::gen::elementOf(dirs.empty() ? shape.dirs : dirs);
		const unsigned ps = sc.cfg.page_shift;
		const SgTable t = shape.lies.empty() || draw_weighted_pick<bool>({{3, true}, {1, false}})
					  ? *gen_honest_table(ps)
					  : *gen_lying_table(ps, shape.lies);
		put_table(sc, t);
		if (sc.dir == Dir::rx || sc.dir == Dir::zcrx) {
			if (sc.dir == Dir::zcrx || (shape.caps & NIOV_CAP_RX_BUF_SIZE))
				sc.rx_buf_size = *gen_rx_buf_size(ps);
			if (draw_weighted_pick<bool>({{6, false}, {1, true}}))
				sc.pp_order = *weighted<unsigned>({
					{3, uniform(0u, 10u)},
					{1, rc::gen::element(63u, 13u, 20u)},
				});
			if (sc.dir == Dir::zcrx)
				sc.zcrx_device = draw_weighted_pick<bool>({{4, true}, {1, false}});
			return sc;
		}
		// TX sometimes carries the RX-only attribute (-EINVAL).
		if (draw_weighted_pick<bool>({{30, false}, {1, true}}))
			sc.rx_buf_size = draw_pick<uint32_t>({4096, 0, 65536});
		const unsigned sends = shape.max_sends ? *uniform(1u, shape.max_sends + 1) : 0;
		for (unsigned i = 0; i < sends; ++i) {
			sc.ops.push_back(draw_send(sc));
			if (!shape.tcp_ops)
				continue;
			const unsigned extra = *uniform(0u, 3u);
			for (unsigned k = 0; k < extra; ++k) {
				Op op;
				op.kind = *rc::gen::element(OpKind::ack, OpKind::split, OpKind::shift, OpKind::free);
				if (op.kind != OpKind::free)
					op.n = draw_tcp_amount(sc.cfg);
				sc.ops.push_back(op);
			}
		}
		if (shape.tcp_ops && *coin())
			sc.ops.push_back(Op{OpKind::free, {}, std::nullopt, 0, 0});
		return sc;
	});
}

}  // namespace niov::props
