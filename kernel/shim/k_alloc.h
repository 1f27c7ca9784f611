/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_alloc.h - the kmalloc / kvmalloc / vmalloc families, all on one
 * counted allocator (runtime/alloc.c): a live count and byte total for the
 * leak check, the kernel's INT_MAX cap on kvmalloc sizes,
 * fail-the-Nth-call injection (NIOV_FAULT_ALLOC), and redzones whose
 * report names the kernel call site that allocated (or freed) the block.
 */
#ifndef NIOV_K_ALLOC_H
#define NIOV_K_ALLOC_H

#define GFP_KERNEL		0x1u
#define GFP_ATOMIC		0x2u
#define GFP_NOWAIT		0x4u
#define GFP_KERNEL_ACCOUNT	GFP_KERNEL
#define GFP_USER		GFP_KERNEL
#define GFP_DMA			0x8u
#define __GFP_ZERO		0x100u
#define __GFP_NOWARN		0x200u
#define __GFP_RETRY_MAYFAIL	0x400u
#define __GFP_NORETRY		0x800u
#define __GFP_NOFAIL		0x1000u
#define __GFP_COMP		0x2000u
#define __GFP_ACCOUNT		0
#define NUMA_NO_NODE		(-1)

/*
 * Where kernel code called the allocator: one static record per call site
 * (the #line directives of extracted code make __FILE__ the tree's file),
 * so a block costs one pointer to remember it.
 */
struct niov_k_site {
	const char *file;
	int line;
	const char *func;
};
#define NIOV_K_SITE	({ static const struct niov_k_site __niov_k_site = { __FILE__, __LINE__, __func__ }; \
			   &__niov_k_site; })

/* @kv: the kvmalloc family (refuses sizes above INT_MAX, as the kernel does) */
void *niov_k_alloc(size_t size, gfp_t gfp, bool kv, const struct niov_k_site *site);
void niov_k_free(const void *p, const struct niov_k_site *site);
void *niov_k_realloc(const void *p, size_t size, gfp_t gfp, bool kv, const struct niov_k_site *site);

#define kmalloc(s, g)			niov_k_alloc(s, g, false, NIOV_K_SITE)
#define kzalloc(s, g)			niov_k_alloc(s, (g) | __GFP_ZERO, false, NIOV_K_SITE)
#define kmalloc_node(s, g, n)		kmalloc(s, g)
#define kzalloc_node(s, g, n)		kzalloc(s, g)
#define kmalloc_array(n, s, g)		kmalloc(size_mul(n, s), g)
#define kcalloc(n, s, g)		kzalloc(size_mul(n, s), g)
#define kmalloc_array_node(n, s, g, nd)	kmalloc_array(n, s, g)
#define kcalloc_node(n, s, g, nd)	kcalloc(n, s, g)
#define krealloc(p, s, g)		niov_k_realloc(p, s, g, false, NIOV_K_SITE)
#define krealloc_array(p, n, s, g)	krealloc(p, size_mul(n, s), g)
#define kvmalloc(s, g)			niov_k_alloc(s, g, true, NIOV_K_SITE)
#define kvzalloc(s, g)			niov_k_alloc(s, (g) | __GFP_ZERO, true, NIOV_K_SITE)
#define kvmalloc_node(s, g, n)		kvmalloc(s, g)
#define kvzalloc_node(s, g, n)		kvzalloc(s, g)
#define kvmalloc_array(n, s, g)		kvmalloc(size_mul(n, s), g)
#define kvcalloc(n, s, g)		kvzalloc(size_mul(n, s), g)
#define kvmalloc_array_node(n, s, g, nd) kvmalloc_array(n, s, g)
#define kvcalloc_node(n, s, g, nd)	kvcalloc(n, s, g)
#define kvrealloc(p, s, g)		niov_k_realloc(p, s, g, true, NIOV_K_SITE)
#define vmalloc(s)			niov_k_alloc(s, GFP_KERNEL, true, NIOV_K_SITE)
#define vzalloc(s)			niov_k_alloc(s, GFP_KERNEL | __GFP_ZERO, true, NIOV_K_SITE)
#define vmalloc_node(s, n)		vmalloc(s)
#define vzalloc_node(s, n)		vzalloc(s)
#define vmalloc_array(n, s)		vmalloc(size_mul(n, s))
#define vcalloc(n, s)			vzalloc(size_mul(n, s))
#define kfree(p)			niov_k_free(p, NIOV_K_SITE)
#define kvfree(p)			niov_k_free(p, NIOV_K_SITE)
#define vfree(p)			niov_k_free(p, NIOV_K_SITE)
/*
 * The typed helpers of 2026 (kmalloc_obj(VAR_OR_TYPE[, gfp]) and
 * kmalloc_objs(VAR_OR_TYPE, count[, gfp])): the size is that of the type or
 * of the expression, the gfp GFP_KERNEL unless given.
 */
#define __niov_k_gfp_(unused, gfp, ...)	gfp
#define __niov_k_gfp(...)		__niov_k_gfp_(, ##__VA_ARGS__, GFP_KERNEL)
#define kmalloc_obj(T, ...)		kmalloc(sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kzalloc_obj(T, ...)		kzalloc(sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kvmalloc_obj(T, ...)		kvmalloc(sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kvzalloc_obj(T, ...)		kvzalloc(sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kmalloc_objs(T, n, ...)		kmalloc_array(n, sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kzalloc_objs(T, n, ...)		kcalloc(n, sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kvmalloc_objs(T, n, ...)	kvmalloc_array(n, sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kvzalloc_objs(T, n, ...)	kvcalloc(n, sizeof(T), __niov_k_gfp(__VA_ARGS__))
#define kfree_sensitive(p)		kfree(p)
#define kvfree_sensitive(p, n)		kvfree(p)
#define kfree_rcu(p, f)			kfree(p)
#define kvfree_rcu(p, ...)		kvfree(p)
#define kfree_const(p)			kfree(p)
#define kmemdup(src, n, g)		({ void *__d = kmalloc(n, g); if (__d) memcpy(__d, src, n); __d; })
#define kstrdup(s, g)			kmemdup(s, strlen(s) + 1, g)
#define kstrdup_const(s, g)		((s) ? kstrdup(s, g) : NULL)
#define ZERO_SIZE_PTR			((void *)16)
#define ZERO_OR_NULL_PTR(x)		((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* kmem caches: plain allocations of the cache's object size */
struct kmem_cache {
	size_t size;
};
struct kmem_cache *niov_k_cache_create(size_t size);
#define kmem_cache_create(name, size, align, flags, ctor)	niov_k_cache_create(size)
#define KMEM_CACHE(s, flags)	niov_k_cache_create(sizeof(struct s))
#define kmem_cache_alloc(c, g)	kmalloc((c)->size, g)
#define kmem_cache_zalloc(c, g)	kzalloc((c)->size, g)
#define kmem_cache_free(c, p)	kfree(p)
#define kmem_cache_destroy(c)	kfree(c)

/* libc's string functions, with the kernel's few extras on top */
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
/* printf as the kernel means it: %pad and friends (runtime/kprintf.c) */
int niov_k_snprintf(char *buf, unsigned long size, const char *fmt, ...);
int niov_k_scnprintf(char *buf, unsigned long size, const char *fmt, ...);
int niov_k_vsnprintf(char *buf, unsigned long size, const char *fmt, va_list ap);
#define snprintf	niov_k_snprintf
#define scnprintf	niov_k_scnprintf
#define vsnprintf	niov_k_vsnprintf
ssize_t niov_k_strscpy(char *d, const char *s, size_t n);
#define strscpy(d, s, ...)	niov_k_strscpy(d, s, sizeof(d))
#define memzero_explicit(p, n)	memset(p, 0, n)

#endif /* NIOV_K_ALLOC_H */
