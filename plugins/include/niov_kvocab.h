/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niov_kvocab.h - the kernel vocabulary that plugins (niov_shim.h) and
 * kernel mode (kernel/shim/) say the same way: limits, sizes, alignment,
 * bit helpers, min_t/max_t, the page size derived from PAGE_SHIFT, and
 * error pointers.
 *
 * Plain C, no includes: kernel mode builds with -nostdinc.  The includer
 * provides u8..u64 and size_t first, and PAGE_SHIFT (run-time in both, from
 * a different place) before using the page macros.  What the two sides say
 * differently stays with them (niov_shim.h, kernel/shim/k_math.h).
 */
#ifndef NIOV_KVOCAB_H
#define NIOV_KVOCAB_H

/* --- compiler ------------------------------------------------------------- */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define __kv_paste(a, b)	a##b
#define __kv_paste2(a, b)	__kv_paste(a, b)
/* Fresh local names, so min_t(T, min_t(T, a, b), c) cannot shadow its temps. */
#define __kv_unique(prefix)	__kv_paste2(__kv_##prefix, __COUNTER__)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* --- limits and sizes ------------------------------------------------------ */

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define SZ_4K		0x00001000
#define SZ_8K		0x00002000
#define SZ_16K		0x00004000
#define SZ_32K		0x00008000
#define SZ_64K		0x00010000
#define SZ_128K		0x00020000
#define SZ_256K		0x00040000
#define SZ_512K		0x00080000
#define SZ_1M		0x00100000
#define SZ_2M		0x00200000

/* --- arithmetic ------------------------------------------------------------ */

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

/* The mask is built in x's type, as the kernel's __ALIGN_KERNEL does. */
#define __ALIGN_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_MASK(x, (__typeof__(x))(a) - 1)
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* Both operands are converted to @type first, as in the kernel. */
#define __kv_cmp_t(op, type, x, y, ux, uy) __extension__ ({	\
	type ux = (type)(x);					\
	type uy = (type)(y);					\
	ux op uy ? ux : uy; })
#define min_t(type, x, y) __kv_cmp_t(<, type, x, y, __kv_unique(x_), __kv_unique(y_))
#define max_t(type, x, y) __kv_cmp_t(>, type, x, y, __kv_unique(x_), __kv_unique(y_))

/* As the kernel's: a function of unsigned long. */
static inline _Bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

/* Index (1-based) of the highest set bit; 0 for 0. */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* Like the kernel's non-constant ilog2(): -1 for 0. */
static inline int __ilog2_u64(u64 n)
{
	return fls64(n) - 1;
}
#define ilog2(n)	__ilog2_u64((u64)(n))

/* --- pages (PAGE_SHIFT is the includer's) ----------------------------------- */

#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PAGE_ALIGNED(addr)	IS_ALIGNED((unsigned long)(addr), PAGE_SIZE)

/* --- error pointers -------------------------------------------------------- */

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline _Bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline _Bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

#endif /* NIOV_KVOCAB_H */
