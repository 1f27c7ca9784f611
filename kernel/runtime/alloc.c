// SPDX-License-Identifier: GPL-2.0
/*
 * alloc.c - one counted allocator under every kmalloc/kvmalloc/vmalloc of
 * the code: each block carries its size in a 16-byte header (alignment
 * kept), so the live count and byte total stay exact for the leak check.
 *
 * Failures, as the kernel has them: the kvmalloc family refuses more than
 * INT_MAX bytes; NIOV_FAULT_ALLOC fails the armed call.  And one the
 * kernel does not have, to keep fuzzed sizes from taking the machine: the
 * live total may not pass NIOV_K_LIVE_LIMIT (a failure then is -ENOMEM to
 * the code, which the kernel would give too on a machine that small).
 */
#include "runtime.h"
#include "libc_bridge.h"

#define NIOV_K_LIVE_LIMIT	(4UL << 30)
#define HEADER			16UL
#define MAGIC			0x6e696f766b6d656dULL	/* "niovkmem" */

struct header {
	u64 size;
	u64 magic;
};

void *niov_k_alloc(size_t size, gfp_t gfp, bool kv)
{
	struct header *h;

	if (niov_k_fault_hit(NIOV_FAULT_ALLOC))
		return NULL;
	if (kv && size > (size_t)INT_MAX)
		return NULL;	/* kvmalloc_node(): "unacceptable" sizes */
	if (size > NIOV_K_LIVE_LIMIT ||
	    (u64)niov_k_res.alloc_bytes + size > NIOV_K_LIVE_LIMIT)
		return NULL;

	h = niov_libc_malloc(HEADER + size);
	if (!h)
		return NULL;
	h->size = size;
	h->magic = MAGIC;
	if (gfp & __GFP_ZERO)
		niov_libc_memzero(h + 1, size);
	niov_k_res.allocs++;
	niov_k_res.alloc_bytes += (s64)size;
	return h + 1;
}

void niov_k_free(const void *p)
{
	struct header *h;

	if (!p)
		return;
	h = (struct header *)p - 1;
	if (niov_k_free_hook)
		niov_k_free_hook(p);
	if (h->magic != MAGIC) {
		/* not ours or freed twice: as bad as it gets in the kernel */
		niov_k_bug(__FILE__, __LINE__, "kfree() of a pointer the allocator did not hand out");
	}
	h->magic = 0;
	niov_k_res.allocs--;
	niov_k_res.alloc_bytes -= (s64)h->size;
	niov_libc_free(h);
}

void *niov_k_realloc(const void *p, size_t size, gfp_t gfp, bool kv)
{
	const struct header *h;
	void *n;

	if (!p)
		return niov_k_alloc(size, gfp, kv);
	h = (const struct header *)p - 1;
	n = niov_k_alloc(size, gfp, kv);
	if (!n)
		return NULL;
	memcpy(n, p, min_t(size_t, size, h->size));
	niov_k_free(p);
	return n;
}
