/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niov_impl.h - the C ABI between niovcheck and an implementation plugin.
 *
 * A plugin is a shared object that re-types the logic of a kernel patch
 * (bind, get_niov_at, the devmem TX fill) and exports one symbol,
 * niov_impl_get(), returning a table of operations.  Every engine of
 * niovcheck (replay, properties, fuzzing) drives the plugin through this
 * table and compares each answer with the reference model.
 *
 * Conventions:
 *  - errors are negative errno values, exactly as the kernel returns them;
 *  - widths follow the kernel (u32 frag length and truesize, int length,
 *    64-bit dmabuf offsets and DMA addresses);
 *  - a plugin keeps no global state beyond the configuration it is given,
 *    so one process may bind many times.
 *
 * Versions: every version keeps the previous one's structures as a prefix
 * and appends to them, so the loader still takes plugins built against an
 * older version (it reads only the fields that version had).  It refuses
 * versions it does not know.  A v1 plugin's source built against this
 * header keeps .abi_version = 1: set to NIOV_IMPL_ABI_VERSION it claims
 * the later fields, all zero (no capabilities), and is refused.
 *
 * v1: the operations up to @policy.
 * v2: capabilities, declared rules, frag release and resource accounting,
 *     the RX allocator, zcrx registration with the area's segments, a "not
 *     representable" answer, extack messages and fault injection, so real
 *     kernel code (which has only some of the paths, takes references and
 *     allocates) can be checked for what it has.
 * v3: an RX bind that also opens the queue (as netlink's bind-rx does)
 *     reports the queue's answer apart from the bind's (niov_bind_args
 *     @queue_err), so an error is charged to the step that raised it; the
 *     code may say where each kind of answer comes from (@code_sites).
 */
#ifndef NIOV_IMPL_H
#define NIOV_IMPL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NIOV_IMPL_ABI_VERSION 3
#define NIOV_IMPL_ABI_MIN_VERSION 1	/* oldest version the loader takes */

/*
 * Returned by bind or zcrx_register (v2) when the input cannot be handed to
 * the code at all: a 4 GiB sg entry where the kernel's scatterlist keeps a
 * u32 dma_length, say.  Not an errno (errnos stop at 4095): the engines
 * report the case as not representable instead of comparing it.
 */
#define NIOV_E_NOT_REPRESENTABLE	(-100000)

/*
 * v2 capabilities (ops->caps): which paths the code has.  The engines check
 * a plugin only on what it has: without NIOV_CAP_TX no TX bind reaches it,
 * without NIOV_CAP_RX_BUF_SIZE no bind carrying the attribute does (the
 * netlink layer in front of such code rejects it; the model says how), and
 * so on.  A missing path is reported as not run, never as a pass.
 */
enum niov_cap {
	NIOV_CAP_TX		= 1u << 0,	/* bind with NIOV_DIR_TX */
	NIOV_CAP_RX		= 1u << 1,	/* bind with NIOV_DIR_RX */
	NIOV_CAP_RX_BUF_SIZE	= 1u << 2,	/* bind-rx knows the rx-buf-size attribute */
	NIOV_CAP_LOOKUP		= 1u << 3,	/* get_niov_at */
	NIOV_CAP_FILL		= 1u << 4,	/* the TX fill */
	NIOV_CAP_ZCRX		= 1u << 5,	/* zcrx_validate or zcrx_register */
	NIOV_CAP_RX_ALLOC	= 1u << 6,	/* rx_alloc / rx_free */
	NIOV_CAP_PP_INIT	= 1u << 7,	/* pp_init is the code's own */
	NIOV_CAP_TX_DESC	= 1u << 8,	/* encode_tx_desc is the code's own */
	NIOV_CAP_FAULTS		= 1u << 9,	/* fault_arm / fault_calls */
};
/* What a v1 plugin is taken to have. */
#define NIOV_CAPS_V1	(NIOV_CAP_TX | NIOV_CAP_RX | NIOV_CAP_RX_BUF_SIZE | \
			 NIOV_CAP_LOOKUP | NIOV_CAP_FILL | NIOV_CAP_ZCRX)

/*
 * v2 fault injection points (ops->fault_arm).  What an injected failure
 * looks like to the code, so the suite knows which errno the bind may
 * return (model/faults.hpp): an allocation returns NULL (the code's own
 * error follows: -ENOMEM, or -EINVAL where devmem rewrites gen_pool's);
 * dma_buf_get fails -EBADF; dma_buf_attach and dma_buf_map_attachment
 * fail -ENOMEM; the rx queue restart fails -ENOMEM; xa_alloc_cyclic fails
 * -EBUSY (no free id).  The dma-buf and queue errors pass through the bind.
 */
enum niov_fault {
	NIOV_FAULT_ALLOC = 0,		/* kmalloc/kvmalloc/kzalloc family */
	NIOV_FAULT_DMABUF_GET,		/* dma_buf_get */
	NIOV_FAULT_DMABUF_ATTACH,	/* dma_buf_attach */
	NIOV_FAULT_DMABUF_MAP,		/* dma_buf_map_attachment */
	NIOV_FAULT_QUEUE_RESTART,	/* the rx queue restart of bind-to-queue */
	NIOV_FAULT_ID_ALLOC,		/* xa_alloc_cyclic of the binding id */
	NIOV_FAULT_COUNT_,
};

/*
 * v2 resource counters (ops->resources), process-wide.  The engines read
 * them before a bind and after its unbind: anything not back where it
 * started is a leak, any new WARN a finding.
 */
struct niov_resources {
	int64_t allocs;			/* live allocations made by the code */
	int64_t alloc_bytes;		/* their bytes */
	int64_t dmabuf_refs;		/* dma-buf references held */
	int64_t dma_mappings;		/* attachments mapped and not unmapped */
	int64_t binding_refs;		/* references on live bindings */
	int64_t niov_refs;		/* niov references taken and not put */
	int64_t warns;			/* WARN / WARN_ON / WARN_ONCE hits */
	int64_t bugs;			/* BUG / BUG_ON hits (the code was stopped) */
	int64_t reserved[8];
};

enum niov_device {
	NIOV_DEV_NONE = 0,
	NIOV_DEV_MLX5,
	NIOV_DEV_GVE,
	NIOV_DEV_FBNIC,
	NIOV_DEV_BNXT,
};

enum niov_dir {
	NIOV_DIR_TX = 0,
	NIOV_DIR_RX,
	NIOV_DIR_ZCRX,
};

/* The run's configuration; valid for the whole life of a binding. */
struct niov_impl_config {
	uint32_t abi_version;		/* NIOV_IMPL_ABI_VERSION */
	uint32_t page_shift;		/* 12, 14 or 16 */
	uint32_t max_skb_frags;		/* CONFIG_MAX_SKB_FRAGS, 17..45 */
	uint32_t device;		/* enum niov_device */
	uint32_t dev_tx_max_frag_size;	/* netmem_tx_max_frag_size of the device */
	uint32_t max_page_order;	/* MAX_PAGE_ORDER */
	/* v2 */
	uint32_t mss;			/* GSO segment size the device sees */
	uint32_t reserved[7];
};

/* One DMA-mapped sg entry; virtual (dmabuf) offsets are consecutive from 0. */
struct niov_dma_seg {
	uint64_t addr;
	uint64_t len;
};

struct niov_bind_args {
	uint32_t dir;			/* enum niov_dir */
	uint32_t has_rx_buf_size;	/* NETDEV_A_DMABUF_RX_BUF_SIZE present */
	uint32_t rx_buf_size;		/* its u32 value */
	uint32_t nr_segs;
	uint64_t dmabuf_size;
	const struct niov_dma_seg *segs;
	/* v2: where a failing bind writes its extack message (NUL-terminated) */
	char *extack;
	uint32_t extack_len;
	uint32_t reserved;
	/*
	 * v3 (cfg->abi_version >= 3; NULL otherwise): a bind that goes on to
	 * open the RX queue, as bind-rx's handler does with bind-to-queue,
	 * stores here what opening it returned and, when the bind itself
	 * worked, returns 0 with the binding kept until unbind, whatever the
	 * queue said.  Left at NIOV_QUEUE_NOT_OPENED, the suite runs its own
	 * queue step (the device rules and pp_init).
	 */
	int32_t *queue_err;
};

#define NIOV_QUEUE_NOT_OPENED	1

/* v2: an io_uring zcrx area registration with its DMA segments. */
struct niov_zcrx_args {
	uint32_t rx_buf_len;		/* 0 = the default (PAGE_SIZE) */
	uint32_t has_device;		/* the ifq has a real device behind it */
	uint32_t nr_segs;
	uint32_t reserved;
	uint64_t area_size;
	const struct niov_dma_seg *segs;
	char *extack;			/* as in niov_bind_args */
	uint32_t extack_len;
	uint32_t reserved2;
};

/* One iovec element of a devmem sendmsg: base is a dmabuf offset. */
struct niov_iov {
	uint64_t base;
	uint64_t len;
};

/*
 * The iov_iter of a sendmsg.  The plugin advances it exactly as the kernel
 * advances msg->msg_iter (see niov_shim.h for the helpers).
 */
struct niov_iov_iter {
	const struct niov_iov *iov;	/* the current element */
	uint64_t nr_segs;		/* elements left, including the current */
	uint64_t iov_offset;		/* bytes consumed of the current element */
	uint64_t count;			/* bytes left in the whole iterator */
};

/* One skb frag as the fill leaves it. */
struct niov_frag {
	uint64_t niov;			/* index into the binding's niov table */
	uint32_t off;			/* offset inside that niov */
	uint32_t len;			/* skb_frag_size() */
	uint32_t truesize;		/* what skb_add_rx_frag_netmem() charged */
	uint32_t reserved;
};

/* The skb being filled: the frags already there plus room up to max_skb_frags. */
struct niov_skb {
	struct niov_frag *frags;	/* max_skb_frags entries */
	uint32_t nr_frags;
	uint32_t len;
	uint32_t truesize;
};

struct niov_impl_ops {
	uint32_t abi_version;		/* NIOV_IMPL_ABI_VERSION */
	const char *name;		/* short name shown in reports */
	const char *description;	/* what the plugin models, one line */

	/*
	 * Netlink attribute checks plus net_devmem_bind_dmabuf().  On success
	 * store an opaque binding in *binding and return 0; else return the
	 * kernel's negative errno.  cfg stays valid until unbind.
	 */
	int (*bind)(const struct niov_impl_config *cfg,
		    const struct niov_bind_args *args, void **binding);
	void (*unbind)(void *binding);

	uint32_t (*niov_shift)(const void *binding);
	uint64_t (*num_niovs)(const void *binding);
	/* DMA address of niov @idx; -EINVAL if @idx is not in the table. */
	int (*niov_dma_addr)(const void *binding, uint64_t idx, uint64_t *addr);

	/*
	 * net_devmem_get_niov_at(): 0 and (*idx, *off, *size) for a valid
	 * offset, -EFAULT where the kernel returns NULL.
	 */
	int (*get_niov_at)(const void *binding, uint64_t virt, uint64_t *idx,
			   uint64_t *off, uint64_t *size);

	/*
	 * zerocopy_fill_skb_from_devmem(): append frags to @skb for up to
	 * @length bytes of @iter; return 0, -EMSGSIZE or -EFAULT.  The caller
	 * (the suite's TCP model) handles reverting and accounting.
	 */
	int (*fill)(void *binding, struct niov_skb *skb,
		    struct niov_iov_iter *iter, int length);

	/* Optional (NULL = the model's answer is used, nothing compared). */

	/* mp_dmabuf_devmem_init(): page_pool order check for RX bindings. */
	int (*pp_init)(const void *binding, uint32_t pp_order);
	/*
	 * io_uring zcrx rx_buf_len validation: 0 or negative errno.
	 * @area_max_shift: largest shift every chunk of the area is aligned to;
	 * @has_device: the ifq has a real device behind it.
	 */
	int (*zcrx_validate)(const struct niov_impl_config *cfg,
			     uint32_t rx_buf_len, uint32_t area_max_shift,
			     uint32_t has_device);
	/*
	 * TX descriptor lengths the NIC sees for one frag: fill @lens with at
	 * most @max entries, return how many (negative errno if the driver
	 * would drop the packet).
	 */
	int (*encode_tx_desc)(const struct niov_impl_config *cfg,
			      uint32_t frag_len, uint32_t *lens, uint32_t max);

	/* For broken variants: the invariant id that must catch the slip. */
	const char *must_catch;
	/*
	 * For broken variants that are a rule change the model can express:
	 * the policy overrides that give the same rules ("truesize=page"), so
	 * the proofs can judge the slip too.  NULL otherwise.
	 */
	const char *policy;

	/* --- v2 (abi_version >= 2) --- */

	uint32_t caps;			/* enum niov_cap mask */
	uint32_t reserved0;
	/*
	 * The rules the code implements: a preset name ("baseline",
	 * "net-next", "tx-autosize", "linux-6.12", ...), NULL = not declared
	 * (the user passes --rules).  @policy above, when set, overrides single
	 * policies on top of it, for any plugin.
	 */
	const char *rules;

	/*
	 * Put back what the fill took for @frag (the skb frag's niov reference
	 * and, through it, the binding's).  Called once per frag the suite's
	 * TCP model frees (ack, free, an skb dropped after an error).  NULL =
	 * the fill takes nothing.
	 */
	void (*frag_release)(void *binding, const struct niov_frag *frag);
	/* Process-wide counters; NULL = not tracked. */
	void (*resources)(struct niov_resources *out);

	/*
	 * The RX allocator (the page_pool memory provider's alloc/free of an
	 * RX binding): 0 and the niov's table index, net_iov_virtual_addr()
	 * (its dmabuf offset) and DMA address; -ENOMEM when none is free.
	 */
	int (*rx_alloc)(void *binding, uint64_t *idx, uint64_t *virt, uint64_t *dma);
	void (*rx_free)(void *binding, uint64_t idx);

	/*
	 * io_uring zcrx registration with the area's segments (replaces
	 * zcrx_validate when set): 0 and the niov shift, or negative errno, or
	 * NIOV_E_NOT_REPRESENTABLE.
	 */
	int (*zcrx_register)(const struct niov_impl_config *cfg,
			     const struct niov_zcrx_args *args, uint32_t *niov_shift);

	/*
	 * Fault injection: make the @nth call (1-based, counted from this
	 * call) of @kind fail; @nth 0 disarms and only counts.  fault_calls()
	 * gives the calls of @kind counted since the last fault_arm().
	 */
	void (*fault_arm)(uint32_t kind, uint64_t nth);
	uint64_t (*fault_calls)(uint32_t kind);

	/* --- v3 (abi_version >= 3) --- */

	/*
	 * Where the code's answers come from, for reports that point into the
	 * code: "CLASS=FILE:LINE FUNCTION" entries separated by ';', CLASS one
	 * of bind, rx queue, lookup, frags, truesize, rx alloc, pp_init (the
	 * kinds of answer the engines compare).  NULL = not said.
	 */
	const char *code_sites;

	void *reserved_ops[7];
};

/* The one symbol a plugin exports. */
const struct niov_impl_ops *niov_impl_get(void);

#ifdef __cplusplus
}
#endif

#endif /* NIOV_IMPL_H */
