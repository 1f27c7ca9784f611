// Bytes the process has allocated and not freed, for the leak check around
// repeated bind/unbind cycles (PluginImpl::leak_check).  glibc's count in
// plain builds, the sanitizer allocator's under ASan.
#pragma once

#include <cstdint>

namespace niov {

uint64_t allocated_bytes();

// The least a kept allocation adds to allocated_bytes(): glibc rounds every
// chunk up to 32 bytes, the sanitizer allocators count the bytes asked for.
uint64_t min_leaked_allocation();

// True when every one of @cycles repeated cycles kept at least one
// allocation: growth of @grown bytes over @cycles cycles that a leak
// explains and allocator noise (a cache filling, a bin split once) does not.
bool grows_every_cycle(uint64_t grown, unsigned cycles);

}  // namespace niov
