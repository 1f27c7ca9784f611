/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_math.h - limits, min/max, alignment, bit helpers, errnos and ERR_PTR,
 * and the run-time PAGE_SHIFT / MAX_SKB_FRAGS: one compiled plugin serves
 * every page size and frag limit the suite asks for (niov_impl_config).
 */
#ifndef NIOV_K_MATH_H
#define NIOV_K_MATH_H

/*
 * What plugins say the same way (plugins/include/niov_kvocab.h): U*_MAX,
 * the SZ_ sizes from 4K to 2M, BIT, ALIGN/IS_ALIGNED, DIV_ROUND_UP,
 * ARRAY_SIZE, likely, min_t/max_t, fls64, __ffs, ilog2, is_power_of_2,
 * PAGE_SIZE/PAGE_MASK/PAGE_ALIGNED from PAGE_SHIFT below, and the error
 * pointers.  Here stays what kernel mode says its own way: min/max without
 * the plugins' type check (real kernel code mixes types the kernel's own
 * min() accepts), PAGE_SHIFT as an int, get_order() of 0, the errnos
 * (plugins take libc's).
 */
#include "../../plugins/include/niov_kvocab.h"

#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define S64_MAX		((s64)(U64_MAX >> 1))
#define INT_MAX		((int)(~0U >> 1))
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(~0U)
#define LONG_MAX	((long)(~0UL >> 1))
#define LONG_MIN	(-LONG_MAX - 1)
#define ULONG_MAX	(~0UL)
#define LLONG_MAX	((long long)(~0ULL >> 1))
#define ULLONG_MAX	(~0ULL)
#define SIZE_MAX	(~(size_t)0)
#define PHYS_ADDR_MAX	(~(phys_addr_t)0)
#define BITS_PER_BYTE	8
#define BITS_PER_LONG	64
#define BITS_PER_LONG_LONG 64

#define __cmp(op, x, y)	((x) op (y) ? (x) : (y))
#define min(x, y)	({ typeof(x) _a = (x); typeof(y) _b = (y); _a < _b ? _a : _b; })
#define max(x, y)	({ typeof(x) _a = (x); typeof(y) _b = (y); _a > _b ? _a : _b; })
#define min3(x, y, z)	min(min(x, y), z)
#define max3(x, y, z)	max(max(x, y), z)
#define umin(x, y)	min_t(unsigned long long, x, y)
#define umax(x, y)	max_t(unsigned long long, x, y)
#define min_not_zero(x, y) ({ typeof(x) _x = (x); typeof(y) _y = (y); \
			      _x == 0 ? _y : (_y == 0 ? _x : min(_x, _y)); })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(T, v, lo, hi) min_t(T, max_t(T, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(typeof(v), v, lo, hi)
#define swap(a, b)	do { typeof(a) _t = (a); (a) = (b); (b) = _t; } while (0)
#define abs(x)		({ typeof(x) _x = (x); _x < 0 ? -_x : _x; })

#define DIV_ROUND_UP_ULL(n, d)	DIV_ROUND_UP((unsigned long long)(n), d)
#define ALIGN_DOWN(x, a)	((x) & ~((typeof(x))(a) - 1))
#define PTR_ALIGN(p, a)		((typeof(p))ALIGN((unsigned long)(p), (a)))
#define round_up(x, y)		((((x) - 1) | ((typeof(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((typeof(x))((y) - 1)))
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y)		((x) - ((x) % (y)))

#define BIT_MASK(n)		(1UL << ((n) % BITS_PER_LONG))
#define BIT_WORD(n)		((n) / BITS_PER_LONG)
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)
#define BITS_TO_BYTES(n)	DIV_ROUND_UP(n, BITS_PER_BYTE)
#define GENMASK(h, l)		(((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	GENMASK(h, l)
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))

#define SZ_1K	0x00000400
#define SZ_4M	0x00400000
#define SZ_1G	0x40000000
#define SZ_4G	_AC(0x100000000, ULL)
#define _AC(x, s)	(x##s)
#define _UL(x)		(x##UL)
#define _ULL(x)		(x##ULL)
#define UL(x)		_UL(x)
#define ULL(x)		_ULL(x)

static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline unsigned long __fls(unsigned long x) { return 63 - __builtin_clzl(x); }
static inline int ffs(int x) { return __builtin_ffs(x); }
#define ffz(x)			__ffs(~(x))
#define hweight_long(x)		__builtin_popcountl(x)
#define hweight32(x)		__builtin_popcount(x)
#define hweight64(x)		__builtin_popcountll(x)
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << fls64(n - 1);
}
static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << (fls64(n) - 1);
}
#define order_base_2(n)		((n) > 1 ? ilog2((n) - 1) + 1 : 0)
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;
	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}
static inline size_t size_add(size_t a, size_t b)
{
	size_t r;
	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}
#define array_size(a, b)	size_mul(a, b)
#define struct_size(p, member, n) \
	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), n))
#define struct_size_t(T, member, n) \
	size_add(sizeof(T), size_mul(sizeof(((T *)0)->member[0]), n))
#define flex_array_size(p, member, n) size_mul(sizeof(*(p)->member), n)

/* The run's page size and frag limit (niov_k_configure()). */
extern unsigned int niov_k_page_shift;
extern unsigned int niov_k_max_skb_frags;
extern unsigned int niov_k_max_page_order;
/* int, as the kernel's constants are (mixed-sign arithmetic must come out the same) */
#define PAGE_SHIFT		((int)niov_k_page_shift)
#define PAGE_ALIGN(x)		ALIGN(x, PAGE_SIZE)
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define MAX_SKB_FRAGS		((int)niov_k_max_skb_frags)
#define MAX_PAGE_ORDER		((int)niov_k_max_page_order)
#define MAX_ORDER		MAX_PAGE_ORDER
#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)
static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return fls64(size - 1) - PAGE_SHIFT;
}

/* errno values (asm-generic/errno-base.h, errno.h numbers) */
#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define EDEADLK		35
#define ENOSYS		38
#define ENODATA		61
#define EOVERFLOW	75
#define EMSGSIZE	90
#define EPROTONOSUPPORT	93
#define EOPNOTSUPP	95
#define EAFNOSUPPORT	97
#define ENETDOWN	100
#define ENOBUFS		105
#define ETIMEDOUT	110
#define EHOSTUNREACH	113
#define EALREADY	114
#define ENOTSUPP	524

static inline void *ERR_CAST(const void *ptr) { return (void *)ptr; }
static inline int PTR_ERR_OR_ZERO(const void *ptr) { return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0; }

#endif /* NIOV_K_MATH_H */
