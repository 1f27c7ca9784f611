// Whole scenarios: a configuration, an sg table, the bind attributes of the
// direction, then sends (and TCP operations) for TX.
#pragma once

#include <vector>

#include <rapidcheck.h>

#include "gen_config.hpp"
#include "gen_sg.hpp"
#include "scenario.hpp"

namespace niov::props {

struct Shape {
	ConfigSpace space;
	std::vector<Dir> dirs{Dir::tx};
	// Lying exporters: which lies may be picked (empty: honest only).
	std::vector<Lie> lies = all_lies();
	unsigned max_sends = 0;	 // TX: up to this many sends
	bool tcp_ops = false;	 // TX: acks, splits, shifts and frees between them
	// The paths the implementation has (NIOV_CAP_*): directions it lacks
	// are not generated, nor the rx-buf-size attribute without it.
	uint32_t caps = ~0u;
};

rc::Gen<Scenario> gen_scenario(const Shape &shape);

// The RX bind attribute / zcrx rx_buf_len: absent, powers of two from
// PAGE_SIZE to beyond 2 MiB, and the edges around them.
rc::Gen<std::optional<uint32_t>> gen_rx_buf_size(unsigned page_shift);

}  // namespace niov::props
