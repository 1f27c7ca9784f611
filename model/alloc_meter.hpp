// Bytes the process has allocated and not freed, for the leak check around
// repeated bind/unbind cycles (PluginImpl::leak_check).  glibc's count in
// plain builds, the sanitizer allocator's under ASan.
#pragma once

#include <cstdint>

namespace niov {

uint64_t allocated_bytes();

}  // namespace niov
