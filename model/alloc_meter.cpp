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

}  // namespace niov
