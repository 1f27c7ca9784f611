#include "budget.hpp"

#include <algorithm>
#include <bit>

#include "decode.hpp"
#include "segs.hpp"

namespace niov::fuzz {

uint64_t work_estimate(const Scenario &sc) {
	const Config &c = sc.cfg;
	// A frag ends at a niov end (niovs and lookups are at least a page), at
	// an skb's size_goal, at the device's max frag, or at an element end.
	uint64_t unit = std::min<uint64_t>(c.page_size(), c.size_goal);
	if (c.tx_max_frag_size)
		unit = std::min<uint64_t>(unit, *c.tx_max_frag_size);
	unit = std::max<uint64_t>(unit, 1);
	const uint64_t max_rw = INT32_MAX;
	uint64_t work = 0;
	for (const auto &op : sc.ops) {
		if (op.kind != OpKind::send)
			continue;
		// Only bytes inside the dmabuf become frags; the first byte past it
		// ends the send with -EFAULT.
		uint64_t bytes = 0;
		for (const auto &e : op.iov) {
			const uint64_t room = e.base < sc.dmabuf_size ? sc.dmabuf_size - e.base : 0;
			const uint64_t add = std::min(e.len, room);
			bytes = add > max_rw - bytes ? max_rw : bytes + add;
		}
		if (op.length)
			bytes = std::min(bytes, *op.length);
		work += bytes / unit + bytes / std::max<uint64_t>(c.size_goal, 1) + 2 * op.iov.size() + 1;
	}
	return work;
}

bool plugin_affordable(const Scenario &sc) {
	const Config &c = sc.cfg;
	unsigned shift = c.page_shift;
	if (sc.dir == Dir::zcrx)
		return true;  // validated, no devmem table
	if (sc.dir == Dir::tx) {
		const auto segs = concrete_segs(sc);
		shift = static_cast<unsigned>(rules::tx_niov_shift<Concrete>(c.policy, c.page_shift,
									      sc.dmabuf_size, segs));
	} else if (sc.rx_buf_size && std::has_single_bit(*sc.rx_buf_size)) {
		shift = std::max<unsigned>(static_cast<unsigned>(std::countr_zero(*sc.rx_buf_size)), shift);
	}
	// The bind allocates a table per sg entry (its gen_pool chunk's niovs)
	// as well as one for the dmabuf (the TX vector), and nothing makes the
	// entries add up to the dmabuf first: a 57 GiB entry of a 0-byte dmabuf
	// built 15 M niovs (0.8 s under ASan).  Each table past the allocation
	// limit fails before it is filled, so it costs nothing.
	const auto table = [&](uint64_t bytes) {
		const uint64_t n = bytes >> shift;
		return n > kMaxNiovTable ? 0 : n;
	};
	uint64_t niovs = table(sc.dmabuf_size);
	for (const DmaSeg &s : sc.segs) {
		niovs += table(s.len);
		if (niovs > kMaxPluginNiovs)
			return false;
	}
	return niovs <= kMaxPluginNiovs;
}

bool within_budget(const Scenario &sc) {
	return sc.segs.size() <= kMaxSegs && sc.ops.size() <= kMaxOps && work_estimate(sc) <= kMaxWork;
}

}  // namespace niov::fuzz
