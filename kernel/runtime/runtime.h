/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runtime.h - what the adapters ask of the kernel runtime: the run's
 * configuration, the process-wide counters and fault injection behind the
 * v2 resources/fault_arm/fault_calls ops, the fake dma-buf registry and the
 * fake net_device.  Compiled with the shim (kernel types).
 */
#ifndef NIOV_K_RUNTIME_H
#define NIOV_K_RUNTIME_H

/* PAGE_SHIFT, MAX_SKB_FRAGS and MAX_PAGE_ORDER of the run. */
void niov_k_configure(const struct niov_impl_config *cfg);
extern unsigned int niov_k_device;	/* enum niov_device of the run */
extern u32 niov_k_dev_tx_max_frag_size;	/* the device's netmem TX frag limit */

/* Called with every block of the code's before it is freed (NULL: none). */
extern void (*niov_k_free_hook)(const void *p);

/* Counters (niov_resources) the runtime and the adapters keep. */
extern struct niov_resources niov_k_res;
void niov_k_resources(struct niov_resources *out);

/*
 * Fault injection: one more call of @kind; true when it is the armed one
 * (it then fails).
 */
bool niov_k_fault_hit(enum niov_fault kind);
void niov_k_fault_arm(u32 kind, u64 nth);
u64 niov_k_fault_calls(u32 kind);

/*
 * A fake dma-buf whose mapping is @segs: the fd dma_buf_get() takes.
 * Returns the fd (>= 0), -ENOMEM, or NIOV_E_NOT_REPRESENTABLE when a
 * segment does not fit the scatterlist's u32 dma_length.
 */
int niov_k_dmabuf_create(u64 size, const struct niov_dma_seg *segs, u32 nr_segs);
/* Drop the creator's reference (the fd is closed). */
void niov_k_dmabuf_close(int fd);

/*
 * The one fake net_device: @nr_rxq rx queues, up.  @rx_page_size_ok: the
 * driver knows QCFG_RX_PAGE_SIZE.  The order its page_pools get at restart
 * is niov_k_queue_order (get_order(rx_page_size) when the provider asks for
 * a size, else @default_order).
 */
struct net_device *niov_k_netdev(void);
void niov_k_netdev_setup(unsigned int default_order, bool rx_page_size_ok);
/* A page_pool of @order for @params, its provider's init run; ERR_PTR on failure. */
struct page_pool *niov_k_page_pool_create(struct netdev_rx_queue *rxq,
					  const struct pp_memory_provider_params *params,
					  unsigned int order);
void niov_k_page_pool_destroy(struct page_pool *pool);

/*
 * Run @fn so that BUG() in kernel code returns @on_bug (counted in bugs).
 * A call that allocated or freed is followed by a heap check.
 */
long niov_k_guarded(long (*fn)(void *arg), void *arg, long on_bug);

/*
 * Every live block's redzones (alloc.c): a broken one is reported with
 * @found ("after ...") and the process aborts.  The generation changes
 * with every allocation and free.
 */
void niov_k_heap_check(const char *found);
u64 niov_k_heap_generation(void);

#endif /* NIOV_K_RUNTIME_H */
