/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_mm.h - struct page as far as netmem.h mirrors it (the offsets its
 * static_asserts check: flags, pp_magic, pp, _pp_mapping_pad, dma_addr,
 * pp_ref_count, then _refcount), struct device, and the page helpers
 * netmem.h names.  No real page ever exists here: devmem deals in net_iovs.
 */
#ifndef NIOV_K_MM_H
#define NIOV_K_MM_H

struct page_pool;
struct page {
	unsigned long flags;
	unsigned long pp_magic;
	struct page_pool *pp;
	unsigned long _pp_mapping_pad;
	unsigned long dma_addr;
	atomic_long_t pp_ref_count;
	atomic_t _refcount;
	unsigned long private;
};
struct folio {
	struct page page;
};

static inline struct page *virt_to_page(const void *p) { (void)p; return NULL; }
static inline void *page_address(const struct page *p) { (void)p; return NULL; }
static inline int page_ref_count(const struct page *p) { return atomic_read(&p->_refcount); }
static inline unsigned long page_to_pfn(const struct page *p) { (void)p; return 0; }
static inline int page_to_nid(const struct page *p) { (void)p; return 0; }
static inline bool page_is_pfmemalloc(const struct page *p) { (void)p; return false; }
static inline struct page *compound_head(struct page *p) { return p; }
static inline void get_page(struct page *p) { atomic_inc(&p->_refcount); }
static inline void put_page(struct page *p) { atomic_dec(&p->_refcount); }
static inline bool page_pool_page_is_pp(const struct page *p) { (void)p; return false; }
#define page_folio(p)		((struct folio *)(p))
#define folio_page(f, n)	(&(f)->page)

struct device_node;
struct device {
	struct device *parent;
	int numa_node;
	const char *name;
};
static inline int dev_to_node(const struct device *d) { (void)d; return NUMA_NO_NODE; }
#define numa_node_id()		0
#define numa_mem_id()		0
#define cpu_to_node(c)		0
#define dev_name(d)		((d)->name)

/* devres (lib/genalloc.c's devm_ helpers): never used, only linked */
typedef void (*dr_release_t)(struct device *dev, void *res);
typedef int (*dr_match_t)(struct device *dev, void *res, void *data);
void *devres_alloc_node(dr_release_t release, size_t size, gfp_t gfp, int nid);
#define devres_alloc(r, s, g)	devres_alloc_node(r, s, g, NUMA_NO_NODE)
void devres_free(void *res);
void devres_add(struct device *dev, void *res);
void *devres_find(struct device *dev, dr_release_t release, dr_match_t match, void *data);
int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *data);

#endif /* NIOV_K_MM_H */
