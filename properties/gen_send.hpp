// Sends: single and multi-element iov lists, empty elements, offsets at and
// around niov, segment and dmabuf boundaries, lengths ending exactly at or
// one past the dmabuf end, sends larger than one skb.
#pragma once

#include <rapidcheck.h>

#include "scenario.hpp"

namespace niov::props {

// The most bytes one generated send may walk: a bound in frags and skbs
// (not bytes), so that 1-byte frag limits or size goals stay fast.
uint64_t send_budget(const Scenario &sc);

// A send for a scenario whose configuration and sg table are set; the
// draw_ form runs inside a generator or a property and copies nothing.
rc::Gen<Op> gen_send(const Scenario &sc);
Op draw_send(const Scenario &sc);

// An ack / split / shift amount with no knowledge of the queue: small
// values, MSS and size_goal multiples, edges.
rc::Gen<uint64_t> gen_tcp_amount(const Config &cfg);
uint64_t draw_tcp_amount(const Config &cfg);

}  // namespace niov::props
