/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niov_shim.h - just enough of the kernel's vocabulary to re-type the logic
 * of a devmem patch into a plugin with few edits.
 *
 * Widths follow a 64-bit kernel: size_t, unsigned long and dma_addr_t are
 * 64 bits, int is 32.  PAGE_SHIFT and MAX_SKB_FRAGS are not compile-time
 * constants here: they come from the run's configuration, which every entry
 * point installs with niov_shim_configure() before running kernel code.
 *
 * Everything is header-only except iov_iter_advance() and the WARN
 * reporter, which live in plugins/shim/niov_shim.c (linked into every
 * plugin, hidden like the rest of the plugin).
 */
#ifndef NIOV_SHIM_H
#define NIOV_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "niov_impl.h"

/* The kernel code we re-type assumes LP64; say so instead of miscomputing. */
_Static_assert(sizeof(size_t) == 8 && sizeof(long) == 8, "niov_shim needs LP64");

/* --- types -------------------------------------------------------------- */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 dma_addr_t;		/* CONFIG_ARCH_DMA_ADDR_T_64BIT */
typedef unsigned int gfp_t;

/*
 * What kernel mode says the same way: limits, sizes, alignment, bits,
 * min_t/max_t, PAGE_SIZE from PAGE_SHIFT, error pointers.  INT_MAX comes
 * from <limits.h>.
 */
#include "niov_kvocab.h"

/* Exported from a plugin; everything else is -fvisibility=hidden. */
#define NIOV_EXPORT	__attribute__((visibility("default")))

/* --- compiler ----------------------------------------------------------- */

#define __niov_paste(a, b)	a##b
#define __niov_paste2(a, b)	__niov_paste(a, b)
/* Fresh local names, so min(min(a, b), c) cannot shadow its own temps. */
#define __UNIQUE_ID(prefix)	__niov_paste2(__niov_##prefix, __COUNTER__)

/* --- arithmetic ----------------------------------------------------------- */

/*
 * min()/max() evaluate each argument once and refuse arguments of
 * different types: comparing the addresses of the two temporaries makes
 * the compiler warn ("distinct pointer types"), and -Werror makes that an
 * error, which is the point - use min_t() to say which type you mean.
 */
#define __cmp_once(op, x, y, ux, uy) __extension__ ({	\
	__typeof__(x) ux = (x);				\
	__typeof__(y) uy = (y);				\
	(void)(&ux == &uy);				\
	ux op uy ? ux : uy; })
#define min(x, y)	__cmp_once(<, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define max(x, y)	__cmp_once(>, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

/* --- the run's configuration ---------------------------------------------- */

/*
 * Thread-local so that engines may run bindings of different
 * configurations on different threads.
 */
extern _Thread_local struct niov_impl_config niov_shim_cfg;

/* Install @cfg; every plugin entry point calls this before kernel code. */
void niov_shim_configure(const struct niov_impl_config *cfg);

#define PAGE_SHIFT	((unsigned int)niov_shim_cfg.page_shift)
#define MAX_SKB_FRAGS	((int)niov_shim_cfg.max_skb_frags)
#define MAX_PAGE_ORDER	((int)niov_shim_cfg.max_page_order)

/* The kernel's generic get_order(); get_order(0) is 64 - PAGE_SHIFT too. */
static inline int get_order(unsigned long size)
{
	size--;
	size >>= PAGE_SHIFT;
	return fls64(size);
}

/* --- allocation ------------------------------------------------------------ */

#define GFP_KERNEL	((gfp_t)0)

/*
 * The allocators are out of line (niov_shim.c): each allocation is counted
 * in niov_shim_res (ABI v2 resources) and may be failed by fault injection
 * (NIOV_FAULT_ALLOC).  Never NULL for 0 bytes: the kernel hands out
 * ZERO_SIZE_PTR there.
 */
void *kvmalloc(size_t size, gfp_t flags);
void *kvzalloc(size_t size, gfp_t flags);
void kvfree(const void *addr);
/*
 * What the kernel code leaks: the block stays counted as allocated (the
 * resource counters show the leak) while its memory goes back, so a fuzz
 * campaign that meets the leak millions of times keeps its footprint.
 */
void kvleak(const void *addr);

static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, flags);
}

static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kvzalloc(bytes, flags);
}

/* --- resources and fault injection (ABI v2) -------------------------------- */

/* Process-wide, as the ABI's resources() reports them. */
extern struct niov_resources niov_shim_res;

/*
 * Count a call of @kind; true when fault injection says this one fails.
 * What a failing point returns is the ABI's convention (niov_impl.h).
 */
bool niov_shim_fault(enum niov_fault kind);

/* The ops every v2 plugin exports. */
void niov_shim_resources(struct niov_resources *out);
void niov_shim_fault_arm(uint32_t kind, uint64_t nth);
uint64_t niov_shim_fault_calls(uint32_t kind);

/* --- warnings -------------------------------------------------------------- */

void niov_shim_warn(const char *file, int line, const char *cond);

/*
 * Evaluates to the condition; every hit counts in niov_shim_res.warns, but
 * each call site prints once (a fuzzer would otherwise flood stderr).
 */
#define WARN_ON(condition) __extension__ ({				\
	bool __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on)) {					\
		static bool __warned;					\
		niov_shim_res.warns++;					\
		if (!__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED)) \
			niov_shim_warn(__FILE__, __LINE__, #condition);	\
	}								\
	unlikely(__ret_warn_on);					\
})
#define WARN(condition, ...)	WARN_ON(condition)
#define WARN_ON_ONCE(condition)	WARN_ON(condition)

/* --- iov_iter over struct niov_iov_iter ------------------------------------- */

/* Kernel code says struct iov_iter; the ABI names it niov_iov_iter. */
#define iov_iter	niov_iov_iter

/* User address of the next byte: a dmabuf offset for devmem (u64 wrap). */
static inline u64 iter_iov_addr(const struct iov_iter *i)
{
	return i->iov->base + i->iov_offset;
}

/* Bytes left in the current element. */
static inline size_t iter_iov_len(const struct iov_iter *i)
{
	return i->iov->len - i->iov_offset;
}

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

/* See niov_shim.c: the kernel's iovec advance, empty elements included. */
void iov_iter_advance(struct iov_iter *i, size_t size);

/* --- DMA-mapped sg table over struct niov_dma_seg ---------------------------- */

#define scatterlist	niov_dma_seg

struct sg_table {
	struct scatterlist *sgl;
	unsigned int nents;
};

/* Lengths stay 64-bit: RULES.md models sg lengths as u64, not unsigned int. */
#define sg_dma_address(sg)	((dma_addr_t)(sg)->addr)
#define sg_dma_len(sg)		((size_t)(sg)->len)

#define for_each_sgtable_dma_sg(sgt, sg, i)				\
	for ((i) = 0, (sg) = (sgt)->sgl; (i) < (sgt)->nents; (i)++, (sg)++)

#endif /* NIOV_SHIM_H */
