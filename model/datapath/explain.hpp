// Why a bind, a zcrx registration or an RX queue open failed, for
// `niovcheck explain`: the check of RULES.md that fired, with the segment,
// size or device limit it fired on.
#pragma once

#include <string>

#include "scenario.hpp"

namespace niov {

// Bind steps 3-6 (TX and RX) with niovs of 1 << @shift that failed @err.
std::string bind_failure_reason(const Scenario &sc, unsigned shift, int err);
// The zcrx rx_buf_len checks that failed @err.
std::string zcrx_failure_reason(const Scenario &sc, uint32_t len, int err);
// Step 7: the device's RX buffer limits and the page_pool order.
std::string queue_failure_reason(const Scenario &sc, unsigned shift, unsigned order, int err);

}  // namespace niov
