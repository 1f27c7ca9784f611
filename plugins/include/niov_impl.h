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
 * Bump NIOV_IMPL_ABI_VERSION on any incompatible change; the loader refuses
 * plugins built against another version.
 */
#ifndef NIOV_IMPL_H
#define NIOV_IMPL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NIOV_IMPL_ABI_VERSION 1

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
};

/* The one symbol a plugin exports. */
const struct niov_impl_ops *niov_impl_get(void);

#ifdef __cplusplus
}
#endif

#endif /* NIOV_IMPL_H */
