#include "alloc_meter.hpp"

#include <malloc.h>

#include <cstddef>

// Present only when a sanitizer runtime is linked in.
extern "C" size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

namespace niov {

uint64_t allocated_bytes() {
	if (__sanitizer_get_current_allocated_bytes)
		return __sanitizer_get_current_allocated_bytes();
	const struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;  // heap chunks in use plus mmap()ed ones
}

uint64_t min_leaked_allocation() {
	return __sanitizer_get_current_allocated_bytes ? 1 : 32;
}

bool grows_every_cycle(uint64_t grown, unsigned cycles) {
	return cycles > 0 && grown >= uint64_t{cycles} * min_leaked_allocation();
}

}  // namespace niov
