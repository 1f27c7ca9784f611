/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devmem_common.h - what every preset shares: the binding and its niov
 * table, the skb and frag helpers of the TX fill, and the glue between the
 * kernel-shaped functions of a preset and struct niov_impl_ops.
 *
 * The preset files (plugins/kernel/) keep the parts that changed between
 * kernel states: the netlink doits, net_devmem_bind_dmabuf(),
 * net_devmem_get_niov_at(), zerocopy_fill_skb_from_devmem() and
 * mp_dmabuf_devmem_init().
 */
#ifndef DEVMEM_COMMON_H
#define DEVMEM_COMMON_H

#include "niov_shim.h"

enum dma_data_direction {
	DMA_TO_DEVICE = 1,	/* TX */
	DMA_FROM_DEVICE = 2,	/* RX */
};

/* Only what the rules look at: the niov's DMA address. */
struct net_iov {
	dma_addr_t dma_addr;
};

struct net_iov_area {
	struct net_iov *niovs;
	size_t num_niovs;
};

struct dma_buf {
	size_t size;
};

struct net_devmem_dmabuf_binding {
	/* A copy: the ops re-install it, since another bind may have run. */
	struct niov_impl_config cfg;
	struct dma_buf *dmabuf;
	struct sg_table *sgt;
	enum dma_data_direction direction;

	/* dmabuf->size >> niov_shift niovs, zeroed until bind initialises them */
	struct net_iov_area area;
	/*
	 * Niovs bind initialised, from index 0: fewer than num_niovs when the
	 * sg entries do not cover the dmabuf.  The kernel marks them through
	 * niov->owner; keeping a count keeps struct net_iov at the DMA address.
	 */
	size_t niovs_init;
	/* TX only: virtual address >> niov_shift -> niov, like the kernel */
	struct net_iov **tx_vec;

	unsigned int niov_shift;
	u32 tx_max_frag_size;		/* seed 000 patch 4 */

	/*
	 * The RX allocator (rx_alloc.c), set up by the bind of an RX binding:
	 * gen_pool eras hand niovs out of one chunk per sg entry, the freelist
	 * bind off a stack of indices.
	 */
	bool rx_genpool;
	struct rx_chunk *rx_chunks;	/* one per sg entry (rx_alloc.c) */
	u8 *rx_taken;			/* gen_pool: per niov, handed out */
	unsigned int rx_top;		/* gen_pool: chunks from here up are full */
	u32 *freelist;			/* freelist bind */
	size_t free_count;

	/* References the fill took (one per frag) and not yet put back. */
	u64 frag_refs;

	struct dma_buf __dmabuf;
	struct sg_table __sgt;
};

/*
 * A niov handed around by the fill: its index in the binding's table
 * (pointer - base), or NIOV_NULL where the kernel has a NULL pointer.
 * An index, not a pointer, so that a broken lookup can name a niov outside
 * the table without anyone forming or reading that pointer.
 */
typedef s64 niov_ref_t;
#define NIOV_NULL	((niov_ref_t)-1)

static inline niov_ref_t net_iov_idx(const struct net_devmem_dmabuf_binding *binding,
				     const struct net_iov *niov)
{
	return niov - binding->area.niovs;
}

/*
 * RULES.md bind step 5: tables above 2^24 niovs stand for a kvmalloc that
 * fails (-ENOMEM).  Every niov-sized allocation of a bind comes here.
 * Zeroed, unlike the kernel's tx_vec, so that an entry no sg entry reached
 * reads as NULL instead of garbage.
 */
#define NET_DEVMEM_MAX_TABLE	(1ULL << 24)

static inline void *net_devmem_table_alloc(size_t n, size_t size)
{
	if (n > NET_DEVMEM_MAX_TABLE)
		return NULL;
	return kvcalloc(n, size, GFP_KERNEL);
}

/* Fills a niov bind created; false = representable (always, on 64 bit). */
static inline bool net_mp_niov_set_dma_addr(struct net_iov *niov, dma_addr_t addr)
{
	niov->dma_addr = addr;
	return false;
}

/*
 * tx_vec[i] as the niov it points at.  Where the kernel would read past
 * tx_vec, read an entry nobody wrote, or read the tx_vec an RX binding does
 * not have, return @i itself: the suite then sees which niov the lookup
 * meant (an out-of-table index for a broken lookup) rather than a crash.
 */
static inline niov_ref_t net_devmem_tx_vec(const struct net_devmem_dmabuf_binding *binding,
					   size_t i)
{
	const struct net_iov *niov;

	if (i >= binding->area.num_niovs || !binding->tx_vec)
		return (niov_ref_t)i;
	niov = binding->tx_vec[i];
	if (!niov)
		return (niov_ref_t)i;
	return net_iov_idx(binding, niov);
}

/*
 * net_devmem_bind_dmabuf()'s common prologue: dma_buf_get(), the binding
 * allocation, dma_buf_attach() and dma_buf_map_attachment() - here the sg
 * table is the caller's segment list, copied like a mapping would be.
 * Returns the binding or ERR_PTR(-ENOMEM).
 */
struct net_devmem_dmabuf_binding *
net_devmem_binding_alloc(const struct niov_impl_config *cfg,
			 const struct niov_bind_args *args,
			 enum dma_data_direction direction);

/* Unmap, free the table and the binding (net_devmem_dmabuf_binding_release). */
void net_devmem_binding_free(struct net_devmem_dmabuf_binding *binding);

/*
 * The error message a failing bind leaves in args->extack (ABI v2), as the
 * kernel's NL_SET_ERR_MSG leaves it in the netlink extack.
 */
#define NL_SET_ERR_MSG(args, msg)	net_devmem_set_err_msg(args, msg)
void net_devmem_set_err_msg(const struct niov_bind_args *args, const char *msg);

/* --- TX fill --------------------------------------------------------------- */

/* The fill's skb: the ABI's struct niov_skb, its shinfo being itself. */
#define sk_buff		niov_skb
#define skb_shinfo(skb)	(skb)

/* Frag @i of @skb points at @niov; charge @truesize for it. */
static inline void skb_add_rx_frag_netmem(struct sk_buff *skb, int i, niov_ref_t niov,
					  int off, int size, unsigned int truesize)
{
	struct niov_frag *frag = &skb_shinfo(skb)->frags[i];

	frag->niov = (u64)niov;
	frag->off = (u32)off;
	frag->len = (u32)size;
	frag->truesize = truesize;
	frag->reserved = 0;
	skb_shinfo(skb)->nr_frags = (u32)i + 1;
	skb->len += (u32)size;
	skb->truesize += truesize;
}

/*
 * get_netmem() on a devmem niov: the frag holds a niov reference and,
 * through it, one on the binding (frag_release puts both back).
 */
static inline void net_devmem_get_net_iov(struct net_devmem_dmabuf_binding *binding)
{
	binding->frag_refs++;
	niov_shim_res.niov_refs++;
	niov_shim_res.binding_refs++;
}

/* --- glue to struct niov_impl_ops -------------------------------------------- */

typedef struct net_devmem_dmabuf_binding *
(*devmem_doit_t)(const struct niov_impl_config *cfg, const struct niov_bind_args *args);
typedef niov_ref_t (*devmem_get_niov_at_t)(const struct net_devmem_dmabuf_binding *binding,
					   size_t virt_addr, size_t *off, size_t *size);
typedef int (*devmem_fill_t)(struct sk_buff *skb, struct iov_iter *from, int length,
			     const struct net_devmem_dmabuf_binding *binding);
typedef int (*devmem_pp_init_t)(const struct net_devmem_dmabuf_binding *binding,
				u32 pp_order);

int devmem_op_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args,
		   void **out, devmem_doit_t rx_doit, devmem_doit_t tx_doit);
int devmem_op_get_niov_at(const void *binding, u64 virt, u64 *idx, u64 *off, u64 *size,
			  devmem_get_niov_at_t get_niov_at);
int devmem_op_fill(void *binding, struct niov_skb *skb, struct niov_iov_iter *iter,
		   int length, devmem_fill_t fill);
int devmem_op_pp_init(const void *binding, u32 pp_order, devmem_pp_init_t init);

/* Ops no preset changes. */
void devmem_op_unbind(void *binding);
void devmem_op_frag_release(void *binding, const struct niov_frag *frag);
int devmem_op_rx_alloc(void *binding, u64 *idx, u64 *virt, u64 *dma);
void devmem_op_rx_free(void *binding, u64 idx);
u32 devmem_op_niov_shift(const void *binding);
u64 devmem_op_num_niovs(const void *binding);
int devmem_op_niov_dma_addr(const void *binding, u64 idx, u64 *addr);

/* io_uring zcrx rx_buf_len checks (zcrx.c); the same in every preset. */
int devmem_op_zcrx_validate(const struct niov_impl_config *cfg, u32 rx_buf_len,
			    u32 area_max_shift, u32 has_device);

/*
 * io_uring zcrx registration with the area's segments (v2): @area_max_shift
 * is how the area's alignment is found (io_area_max_shift, or a slip).
 */
typedef u32 (*zcrx_area_shift_t)(const struct niov_zcrx_args *args);
u32 io_area_max_shift(const struct niov_zcrx_args *args);
int devmem_op_zcrx_register(const struct niov_impl_config *cfg, const struct niov_zcrx_args *args,
			    u32 *niov_shift, zcrx_area_shift_t area_max_shift);
/* The same with io_area_max_shift. */
int devmem_op_zcrx_register_std(const struct niov_impl_config *cfg, const struct niov_zcrx_args *args,
				u32 *niov_shift);

/* The RX allocator of an RX binding (rx_alloc.c): 0 or -ENOMEM. */
int net_devmem_rx_init(struct net_devmem_dmabuf_binding *binding);
/* Gives the allocator back; false when niovs are still out (it WARNs). */
bool net_devmem_rx_release(struct net_devmem_dmabuf_binding *binding);

/*
 * What a kernel-shaped plugin adds to its ops for ABI v2: frag release,
 * resource counters, the RX allocator and fault injection.
 */
#define DEVMEM_V2_CAPS	(NIOV_CAP_RX_ALLOC | NIOV_CAP_FAULTS)
#define DEVMEM_V2_OPS						\
	.frag_release = devmem_op_frag_release,			\
	.resources = niov_shim_resources,			\
	.rx_alloc = devmem_op_rx_alloc,				\
	.rx_free = devmem_op_rx_free,				\
	.fault_arm = niov_shim_fault_arm,			\
	.fault_calls = niov_shim_fault_calls

/* What each NIC's TX path writes for one frag (tx_desc.c). */
int devmem_op_encode_tx_desc(const struct niov_impl_config *cfg, u32 frag_len,
			     u32 *lens, u32 max);

#endif /* DEVMEM_COMMON_H */
