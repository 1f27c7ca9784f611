#include "rx_sweep.hpp"

#include <fmt/format.h>

#include "run_order.hpp"

namespace niov {

namespace {

// num_niovs + 1 calls: each either hands out a niov or takes one without
// handing it out (gen_pool at DMA address 0), and the last finds none left.
std::vector<RxNiov> one_round(Impl &impl, uint64_t calls, RxAllocRound &round, Checker &chk) {
	std::vector<RxNiov> got;
	got.reserve(calls);
	for (uint64_t k = 0; k < calls; ++k) {
		const auto r = impl.rx_alloc();
		if (!r)
			break;
		round.last_failed = r->err != 0;
		if (r->err) {
			++round.failed;
			if (r->err != -kENOMEM)
				chk.fail_with(Inv::rx_alloc_count, [&] {
					return fmt::format("rx_alloc failed with {}, not -ENOMEM", errno_name(r->err));
				});
			continue;
		}
		++round.handed;
		chk.rx_niov(r->niov);
		got.push_back(r->niov);
	}
	sort_falling_runs(got);
	// Free each niov once, duplicates included only once.
	uint64_t last = UINT64_MAX;
	for (const auto &n : got) {
		if (n.idx != last)
			impl.rx_free(n.idx);
		last = n.idx;
	}
	return got;
}

}  // namespace

void sweep_rx_allocator(Impl &impl, Checker &chk, Trace &t, uint64_t max_niovs) {
	const uint64_t n = t.bind.num_niovs;
	if (n > max_niovs) {
		t.not_run.push_back(fmt::format("RX allocator ({} niovs, more than the sweep's {})", n, max_niovs));
		return;
	}
	auto &rep = t.rx_alloc;
	rep.ran = true;
	rep.niovs = one_round(impl, n + 1, rep.rounds[0], chk);
	const auto again = one_round(impl, n + 1, rep.rounds[1], chk);
	rep.same_again = again == rep.niovs;
	chk.rx_rounds(rep);
}

}  // namespace niov
