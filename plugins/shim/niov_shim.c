// SPDX-License-Identifier: GPL-2.0
/*
 * niov_shim.c - the out-of-line parts of niov_shim.h, linked into every
 * plugin.
 */
#include <stdio.h>

#include "niov_shim.h"

_Thread_local struct niov_impl_config niov_shim_cfg;

struct niov_resources niov_shim_res;

static uint64_t fault_calls[NIOV_FAULT_COUNT_];
static uint64_t fault_nth[NIOV_FAULT_COUNT_];

bool niov_shim_fault(enum niov_fault kind)
{
	uint64_t n = ++fault_calls[kind];

	return fault_nth[kind] && n == fault_nth[kind];
}

void niov_shim_fault_arm(uint32_t kind, uint64_t nth)
{
	if (kind >= NIOV_FAULT_COUNT_)
		return;
	fault_calls[kind] = 0;
	fault_nth[kind] = nth;
}

uint64_t niov_shim_fault_calls(uint32_t kind)
{
	return kind < NIOV_FAULT_COUNT_ ? fault_calls[kind] : 0;
}

void niov_shim_resources(struct niov_resources *out)
{
	*out = niov_shim_res;
}

/*
 * Each block carries its size in front (16 bytes, so the caller's pointer
 * keeps malloc's alignment): kvfree() gives the bytes back to the count.
 */
#define NIOV_SHIM_HDR	16

static void *counted(void *p, size_t size)
{
	if (!p)
		return NULL;
	memcpy(p, &size, sizeof(size));
	niov_shim_res.allocs++;
	niov_shim_res.alloc_bytes += (int64_t)size;
	return (char *)p + NIOV_SHIM_HDR;
}

void *kvmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	if (niov_shim_fault(NIOV_FAULT_ALLOC) || size > SIZE_MAX - NIOV_SHIM_HDR)
		return NULL;
	return counted(malloc(NIOV_SHIM_HDR + (size ? size : 1)), size);
}

void *kvzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	if (niov_shim_fault(NIOV_FAULT_ALLOC) || size > SIZE_MAX - NIOV_SHIM_HDR)
		return NULL;
	return counted(calloc(1, NIOV_SHIM_HDR + (size ? size : 1)), size);
}

void kvfree(const void *addr)
{
	char *p;
	size_t size;

	if (!addr)
		return;
	p = (char *)(uintptr_t)addr - NIOV_SHIM_HDR;
	memcpy(&size, p, sizeof(size));
	niov_shim_res.allocs--;
	niov_shim_res.alloc_bytes -= (int64_t)size;
	free(p);
}

void kvleak(const void *addr)
{
	if (addr)
		free((char *)(uintptr_t)addr - NIOV_SHIM_HDR);
}

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
