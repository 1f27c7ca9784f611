// SPDX-License-Identifier: GPL-2.0
/*
 * alloc.c - one counted allocator under every kmalloc/kvmalloc/vmalloc of
 * the code: each block carries its size in a header (alignment kept), so
 * the live count and byte total stay exact for the leak check.
 *
 * Failures, as the kernel has them: the kvmalloc family refuses more than
 * INT_MAX bytes; NIOV_FAULT_ALLOC fails the armed call.  And one the
 * kernel does not have, to keep fuzzed sizes from taking the machine: the
 * live total may not pass NIOV_K_LIVE_LIMIT (a failure then is -ENOMEM to
 * the code, which the kernel would give too on a machine that small).
 *
 * Redzones: kernel code that writes out of bounds must not corrupt the
 * heap the harness runs its next case on, and a plain build has no ASan to
 * stop it.  So every block sits between two guards filled with a pattern,
 * and every live block is on a list.  A guard that changed means the code
 * wrote past (or before) the block; it is checked when the block is freed
 * and by niov_k_heap_check(), which the runtime runs after each call into
 * the code that allocated or freed and whenever the resources are read.
 * A broken guard is reported, sanitizer style, with the block's size and
 * the kernel call site that allocated it, and the process aborts: the
 * engines run cases in a forked worker, so the next case starts in a
 * fresh one.  A write that jumps over a guard into another block is not
 * seen; ASan builds see it, and have no guards here (ASan's own redzones
 * must be next to the block for it to catch over-reads too).
 */
#include "runtime.h"
#include "libc_bridge.h"

#define NIOV_K_LIVE_LIMIT	(4UL << 30)
#define MAGIC			0x6e696f766b6d656dULL	/* "niovkmem" */

#if defined(__SANITIZE_ADDRESS__)
#define NIOV_K_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NIOV_K_ASAN 1
#endif
#endif

#ifdef NIOV_K_ASAN
#define LEAD_GUARD	8UL
#define TRAIL_GUARD	0UL
#else
#define LEAD_GUARD	24UL
/* a whole struct net_iov (64 bytes) past an array still lands in it */
#define TRAIL_GUARD	64UL
#endif

/*
 * The list pointers come first, furthest from the block: a short write
 * before the block breaks the guard, the magic or the size, all of which
 * the checks read, before it reaches anything the sweep follows.
 */
struct header {
	struct header *prev, *next;
	const struct niov_k_site *site;
	u64 size;
	u64 magic;
	u8 lead[LEAD_GUARD];
};

_Static_assert(sizeof(struct header) % 16 == 0, "the block must stay 16-byte aligned");

static struct header live = { .prev = &live, .next = &live };
static u64 generation;

/*
 * Position-dependent, so a shifted copy of the guard does not pass for it;
 * never 0x00 or 0xff, the bytes a stray memset most likely writes.
 */
static u8 pattern(unsigned long i)
{
	u8 b = (u8)(0xa5 ^ (i * 0x3b));

	return b == 0x00 || b == 0xff ? 0x5a : b;
}

static const u8 *guard_pattern(void)
{
	static u8 p[TRAIL_GUARD + 16 > LEAD_GUARD ? TRAIL_GUARD + 16 : LEAD_GUARD];
	static bool ready;
	unsigned long i;

	if (!ready) {
		for (i = 0; i < sizeof(p); i++)
			p[i] = pattern(i);
		ready = true;
	}
	return p;
}

/* The trailing guard runs from the block's end to the next 16-byte boundary and TRAIL_GUARD on. */
static unsigned long trail_len(u64 size)
{
	return TRAIL_GUARD ? TRAIL_GUARD + ((16 - (size & 15)) & 15) : 0;
}

static void fill_guards(struct header *h)
{
	const u8 *p = guard_pattern();

	memcpy(h->lead, p, LEAD_GUARD);
	memcpy((u8 *)(h + 1) + h->size, p, trail_len(h->size));
}

/* The bytes [*from, *to) of @len at @got that differ from the pattern; false if none. */
static bool changed(const u8 *got, unsigned long len, unsigned long *from, unsigned long *to)
{
	const u8 *p = guard_pattern();
	unsigned long i;

	if (!len || !memcmp(got, p, len))
		return false;
	for (i = 0; got[i] == p[i]; i++)
		;
	*from = i;
	for (i = len; got[i - 1] == p[i - 1]; i--)
		;
	*to = i;
	return true;
}

static void site_text(char *buf, unsigned long n, const struct niov_k_site *s)
{
	if (s)
		niov_k_snprintf(buf, n, "%s() at %s:%d", s->func, s->file, s->line);
	else
		niov_k_snprintf(buf, n, "an unknown call site");
}

/*
 * The report, in the shape of a sanitizer's so that the worker picks it up
 * as one (model/worker.cpp) and the finding line names it
 * (kernel/tool/sanitizer_report.cpp).  @lo..@hi: the changed bytes, as
 * offsets from the block's start.
 */
static void __attribute__((noreturn))
report_overflow(const struct header *h, long lo, long hi, const char *found,
		const struct niov_k_site *freer)
{
	char alloc[512], found_text[600];
	const char *where = lo < 0 ? "before" : "past";

	site_text(alloc, sizeof(alloc), h->site);
	if (freer) {
		char f[512];

		site_text(f, sizeof(f), freer);
		niov_k_snprintf(found_text, sizeof(found_text), "when %s freed it", f);
	} else {
		niov_k_snprintf(found_text, sizeof(found_text), "%s", found);
	}
	niov_libc_die("ERROR: KernelRuntimeCheck: heap-buffer-overflow WRITE %s a %llu-byte block "
		      "allocated in %s\n"
		      "    the bytes at offsets %ld..%ld of the block changed (its %s redzone), found %s\n"
		      "SUMMARY: KernelRuntimeCheck: heap-buffer-overflow %s",
		      where, (unsigned long long)h->size, alloc, lo, hi,
		      lo < 0 ? "leading" : "trailing", found_text, alloc);
}

static void check_block(const struct header *h, const char *found, const struct niov_k_site *freer)
{
	unsigned long from, to;
	bool lead = changed(h->lead, LEAD_GUARD, &from, &to);

	/* the magic sits right before the leading guard: a longer write before the block */
	if (lead || h->magic != MAGIC)
		report_overflow(h, h->magic != MAGIC ? -(long)(LEAD_GUARD + sizeof(h->magic))
						     : (long)from - (long)LEAD_GUARD,
				lead ? (long)to - 1 - (long)LEAD_GUARD : -(long)LEAD_GUARD - 1,
				found, freer);
	if (changed((const u8 *)(h + 1) + h->size, trail_len(h->size), &from, &to))
		report_overflow(h, (long)(h->size + from), (long)(h->size + to - 1), found, freer);
}

void niov_k_heap_check(const char *when)
{
	struct header *h;

	for (h = live.next; h != &live; h = h->next)
		check_block(h, when, NULL);
}

u64 niov_k_heap_generation(void)
{
	return generation;
}

void *niov_k_alloc(size_t size, gfp_t gfp, bool kv, const struct niov_k_site *site)
{
	struct header *h;

	if (niov_k_fault_hit(NIOV_FAULT_ALLOC))
		return NULL;
	if (kv && size > (size_t)INT_MAX)
		return NULL;	/* kvmalloc_node(): "unacceptable" sizes */
	if (size > NIOV_K_LIVE_LIMIT ||
	    (u64)niov_k_res.alloc_bytes + size > NIOV_K_LIVE_LIMIT)
		return NULL;

	h = niov_libc_malloc(sizeof(*h) + size + trail_len(size));
	if (!h)
		return NULL;
	h->size = size;
	h->magic = MAGIC;
	h->site = site;
	fill_guards(h);
	if (gfp & __GFP_ZERO)
		niov_libc_memzero(h + 1, size);
	h->prev = live.prev;
	h->next = &live;
	live.prev->next = h;
	live.prev = h;
	generation++;
	niov_k_res.allocs++;
	niov_k_res.alloc_bytes += (s64)size;
	return h + 1;
}

void niov_k_free(const void *p, const struct niov_k_site *site)
{
	struct header *h;
	unsigned long from, to;

	if (!p)
		return;
	h = (struct header *)p - 1;
	if (niov_k_free_hook)
		niov_k_free_hook(p);
	if (h->magic != MAGIC && !changed(h->lead, LEAD_GUARD, &from, &to)) {
		/* not ours or freed twice: as bad as it gets in the kernel */
		niov_k_bug(__FILE__, __LINE__, "kfree() of a pointer the allocator did not hand out");
	}
	check_block(h, NULL, site);
	h->magic = 0;
	h->prev->next = h->next;
	h->next->prev = h->prev;
	generation++;
	niov_k_res.allocs--;
	niov_k_res.alloc_bytes -= (s64)h->size;
	niov_libc_free(h);
}

void *niov_k_realloc(const void *p, size_t size, gfp_t gfp, bool kv, const struct niov_k_site *site)
{
	const struct header *h;
	void *n;

	if (!p)
		return niov_k_alloc(size, gfp, kv, site);
	h = (const struct header *)p - 1;
	n = niov_k_alloc(size, gfp, kv, site);
	if (!n)
		return NULL;
	memcpy(n, p, min_t(size_t, size, h->size));
	niov_k_free(p, site);
	return n;
}
