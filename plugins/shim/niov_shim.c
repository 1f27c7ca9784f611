// SPDX-License-Identifier: GPL-2.0
/*
 * niov_shim.c - the out-of-line parts of niov_shim.h, linked into every
 * plugin.
 */
#include <stdio.h>

#include "niov_shim.h"

_Thread_local struct niov_impl_config niov_shim_cfg;

/*
 * Copied, not pointed to: kernel code reads PAGE_SHIFT long after the
 * caller's struct may have gone.
 */
void niov_shim_configure(const struct niov_impl_config *cfg)
{
	niov_shim_cfg = *cfg;
}

void niov_shim_warn(const char *file, int line, const char *cond)
{
	fprintf(stderr, "WARNING: %s:%d: WARN_ON(%s)\n", file, line, cond);
}

/*
 * The kernel's iov_iter_advance() for ITER_IOVEC: clamp to the bytes left,
 * then walk from the current element, skipping every element the new
 * offset reaches or passes.  Skipping on ">=" is what makes a run of empty
 * elements disappear in one call, and what leaves iov_offset at 0 (not at
 * len) when an element is used up - the fill depends on both.
 */
void iov_iter_advance(struct iov_iter *i, size_t size)
{
	const struct niov_iov *iov, *end;

	if (unlikely(i->count < size))
		size = i->count;
	if (!i->count)
		return;
	i->count -= size;

	size += i->iov_offset;	/* from the start of the current element */
	for (iov = i->iov, end = iov + i->nr_segs; iov < end; iov++) {
		if (likely(size < iov->len))
			break;
		size -= iov->len;
	}
	i->iov_offset = size;
	i->nr_segs -= (u64)(iov - i->iov);
	i->iov = iov;
}
