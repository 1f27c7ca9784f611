/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_types.h - the C types and compiler words of kernel code, for a
 * translation unit built with -nostdinc (no libc header may come in: the
 * kernel's own names would clash with it).  LP64 only, like the suite.
 */
#ifndef NIOV_K_TYPES_H
#define NIOV_K_TYPES_H

typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;
typedef s8 __s8;
typedef u8 __u8;
typedef s16 __s16;
typedef u16 __u16;
typedef s32 __s32;
typedef u32 __u32;
typedef s64 __s64;
typedef u64 __u64;
typedef u16 __le16, __be16;
typedef u32 __le32, __be32, __wsum;
typedef u64 __le64, __be64;

typedef _Bool bool;
#define true	1
#define false	0

typedef unsigned long size_t;
typedef long ssize_t;
typedef long ptrdiff_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;
typedef long long loff_t;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef s8 int8_t;
typedef s16 int16_t;
typedef s32 int32_t;
typedef s64 int64_t;

/* CONFIG_ARCH_DMA_ADDR_T_64BIT, CONFIG_PHYS_ADDR_T_64BIT */
typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef u64 resource_size_t;

typedef __builtin_va_list va_list;
#define va_start(v, l)	__builtin_va_start(v, l)
#define va_end(v)	__builtin_va_end(v)
#define va_arg(v, T)	__builtin_va_arg(v, T)

#define NULL		((void *)0)
#define offsetof(T, m)	__builtin_offsetof(T, m)
#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
#define sizeof_field(T, m) sizeof(((T *)0)->m)

/* Sparse annotations and section markers mean nothing here. */
#define __bitwise
#define __force
#define __rcu
#define __iomem
#define __user
#define __percpu
#define __kernel
#define __private
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define __cond_acquires(x)
#define __init
#define __exit
#define __initdata
#define __ro_after_init
#define __read_mostly
#define __cacheline_aligned
#define __cacheline_aligned_in_smp
#define ____cacheline_aligned
#define ____cacheline_aligned_in_smp
#define __randomize_layout
#define __no_randomize_layout
#define __counted_by(m)
#define __counted_by_ptr(m)
#define __nonstring
#define __must_check	__attribute__((warn_unused_result))
#define __always_inline	inline __attribute__((always_inline))
#define noinline	__attribute__((noinline))
#define __noreturn	__attribute__((noreturn))
#define __cold		__attribute__((cold))
#define __pure		__attribute__((pure))
#define __packed	__attribute__((packed))
#define __aligned(x)	__attribute__((aligned(x)))
#define __maybe_unused	__attribute__((unused))
#define __always_unused	__attribute__((unused))
#define __used		__attribute__((used))
#define __weak		__attribute__((weak))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __malloc	__attribute__((malloc))
#define __alloc_size(...)
#define __realloc_size(...)
#define __assume_aligned(...)
#define __section(s)	__attribute__((section(s)))
#define fallthrough	__attribute__((fallthrough))
#define notrace
#define __visible
#define asmlinkage
#define __latent_entropy
#define __no_sanitize_address
#define __diag_push()
#define __diag_pop()
#define __diag_ignore_all(...)

#define barrier()	__asm__ __volatile__("" ::: "memory")
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	smp_mb()
#define smp_wmb()	smp_mb()
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	do { *(volatile typeof(x) *)&(x) = (v); } while (0)
#define data_race(x)		(x)
#define cpu_relax()		barrier()

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)
#define __PASTE(a, b)		a##b
#define __UNIQUE_ID(p)		__PASTE(__PASTE(__UNIQUE_ID_, p), __COUNTER__)
#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))
#define __is_constexpr(x)	__builtin_constant_p(x)

#define static_assert(e, ...)	_Static_assert(e, #e)
#define BUILD_BUG_ON(e)		((void)sizeof(char[1 - 2 * !!(e)]))
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))
#define BUILD_BUG_ON_MSG(e, m)	BUILD_BUG_ON(e)
#define __must_be_array(a)	0

#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define EXPORT_SYMBOL_NS(s, ns)
#define EXPORT_SYMBOL_NS_GPL(s, ns)
#define EXPORT_IPV6_MOD(s)
#define EXPORT_IPV6_MOD_GPL(s)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_AUTHOR(s)
#define THIS_MODULE		((void *)0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define container_of_const(ptr, type, member) container_of(ptr, type, member)

/* struct_group(): the members, reachable both directly and as a group. */
#define __struct_group(TAG, NAME, ATTRS, MEMBERS...) \
	union { struct { MEMBERS } ATTRS; struct TAG { MEMBERS } ATTRS NAME; }
#define struct_group(NAME, MEMBERS...) __struct_group(, NAME, , MEMBERS)
#define struct_group_tagged(TAG, NAME, MEMBERS...) __struct_group(TAG, NAME, , MEMBERS)
#define DECLARE_FLEX_ARRAY(T, name) struct { struct { } __empty_##name; T name[]; }

#endif /* NIOV_K_TYPES_H */
