// ABI v2 capabilities as the engines use them: which paths a scenario needs
// and how a missing one is named in reports ("not run (plugin lacks TX)").
#pragma once

#include <cstdint>
#include <string>

#include "../../plugins/include/niov_impl.h"
#include "scenario.hpp"

namespace niov {

// "TX", "RX", "rx-buf-size", "lookup", "fill", "zcrx", "RX allocator",
// "page_pool init", "TX descriptors", "fault injection"; several bits are
// joined with ", ".
std::string cap_names(uint32_t caps);

// The capabilities the scenario's bind reaches: its direction, and
// rx-buf-size for an RX bind carrying the attribute.
uint32_t bind_caps(const Scenario &sc);

// "plugin lacks X" for the bits of @needed not in @have, "" if none.
std::string lacking(uint32_t needed, uint32_t have);

}  // namespace niov
