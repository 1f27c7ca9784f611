/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common_ops.h - the niov_impl_ops entries every era fills the same way:
 * the bindings tracked for resources(), what a case may not leave behind,
 * faults, the niov table's questions.
 */
#ifndef NIOV_K_COMMON_OPS_H
#define NIOV_K_COMMON_OPS_H

/*
 * Bindings the code created, tracked until the allocator frees them, so
 * that resources() reads the references still held on each (a binding
 * unbound but never freed keeps counting).  The reference is a refcount_t
 * (6.12) or a percpu_ref (6.13 on).
 */
#define NIOV_K_MAX_TRACKED	64
static struct net_devmem_dmabuf_binding *niov_k_tracked[NIOV_K_MAX_TRACKED];

#define niov_k_ref_count(b) _Generic(&(b)->ref,					\
	refcount_t *: (long)refcount_read((const refcount_t *)(const void *)&(b)->ref), \
	default: ((const struct percpu_ref *)(const void *)&(b)->ref)->count)

static void niov_k_untrack(const void *p)
{
	unsigned int i;

	for (i = 0; i < NIOV_K_MAX_TRACKED; i++) {
		if (niov_k_tracked[i] == p)
			niov_k_tracked[i] = NULL;
	}
}

static inline void niov_k_track(struct net_devmem_dmabuf_binding *b)
{
	unsigned int i;

	niov_k_free_hook = niov_k_untrack;
	for (i = 0; i < NIOV_K_MAX_TRACKED; i++) {
		if (!niov_k_tracked[i]) {
			niov_k_tracked[i] = b;
			return;
		}
	}
	niov_libc_report("more than %d bindings alive: references not tracked", NIOV_K_MAX_TRACKED);
}

/*
 * With none of the suite's bindings alive the code should hold none either.
 * A binding it never freed, or an rx queue still bound to a provider, would
 * change what every later case of this process sees (the queue it gets,
 * the references counted, a queue "already bound"), so the process stops at
 * the read that ends the case that left them; the worker starts the next
 * case in a fresh one.
 */
static inline void niov_k_check_left_behind(long binding_refs)
{
	struct net_device *dev = niov_k_netdev();
	unsigned int i, bindings = 0, queues = 0, first_queue = 0;
	char first[32] = "";

	for (i = 0; i < NIOV_K_MAX_LIVE; i++) {
		if (niov_k_live[i])
			return;
	}
	for (i = 0; i < NIOV_K_MAX_TRACKED; i++)
		bindings += niov_k_tracked[i] != NULL;
	for (i = 0; i < dev->real_num_rx_queues; i++) {
		const struct netdev_rx_queue *rxq = __netif_get_rx_queue(dev, i);

		if (rxq->mp_params.mp_priv || rxq->page_pool) {
			if (!queues++)
				first_queue = i;
		}
	}
	if (!bindings && !queues)
		return;
	if (queues)
		niov_k_snprintf(first, sizeof(first), ", the first queue %u", first_queue);
	niov_libc_die("ERROR: KernelRuntimeCheck: state-left-behind: after every binding was unbound "
		      "the code still holds %u binding(s) (%ld references) and %u rx queue(s) with a "
		      "memory provider%s\n"
		      "    later cases in this process would see them, so it stops here\n"
		      "SUMMARY: KernelRuntimeCheck: state-left-behind",
		      bindings, binding_refs, queues, first);
}

static void niov_k_op_resources(struct niov_resources *out)
{
	unsigned int i;

	niov_k_resources(out);
	out->binding_refs = 0;
	for (i = 0; i < NIOV_K_MAX_TRACKED; i++) {
		if (niov_k_tracked[i])
			out->binding_refs += niov_k_ref_count(niov_k_tracked[i]);
	}
	niov_k_check_left_behind((long)out->binding_refs);
}

static void niov_k_op_fault_arm(uint32_t kind, uint64_t nth)
{
	niov_k_fault_arm(kind, nth);
}

static uint64_t niov_k_op_fault_calls(uint32_t kind)
{
	return niov_k_fault_calls(kind);
}

static uint32_t niov_k_op_niov_shift(const void *binding)
{
	return ((const struct niov_k_binding *)binding)->niov_shift;
}

/*
 * A niov the bind created but never initialised has no DMA address: the
 * freelist area is sized from the dmabuf, so when the sg entries cover less
 * of it, the rest stay zeroed (no owner, DMA 0) and no path hands them out
 * (model/RULES.md, step 6).  The era's adapter says how to tell.
 */
#ifndef NIOV_K_NIOV_BACKED
#define NIOV_K_NIOV_BACKED(niov)	true
#endif

static uint64_t niov_k_op_num_niovs(const void *binding)
{
	return ((const struct niov_k_binding *)binding)->num_niovs;
}

static int niov_k_op_niov_dma_addr(const void *binding, uint64_t idx, uint64_t *addr)
{
	const struct niov_k_binding *kb = binding;
	struct net_iov *niov = niov_k_niov(kb, idx);

	if (!niov || !NIOV_K_NIOV_BACKED(niov))
		return -EINVAL;
	*addr = netmem_get_dma_addr(net_iov_to_netmem(niov));
	return 0;
}

#define NIOV_EXPORT __attribute__((visibility("default")))

/*
 * The entries of niov_impl_ops every era's adapter fills the same way (the
 * rx_alloc/rx_free and pp_init of the era's own headers included).
 */
#ifndef NIOV_K_POLICY
#define NIOV_K_POLICY	NULL	/* the code makes the preset's choices */
#endif
#ifndef NIOV_K_CODE_SITES
#define NIOV_K_CODE_SITES	NULL
#endif
#define NIOV_K_COMMON_OPS					\
	.abi_version = NIOV_IMPL_ABI_VERSION,			\
	.rules = NIOV_K_RULES,					\
	.policy = NIOV_K_POLICY,				\
	.code_sites = NIOV_K_CODE_SITES,			\
	.niov_shift = niov_k_op_niov_shift,			\
	.num_niovs = niov_k_op_num_niovs,			\
	.niov_dma_addr = niov_k_op_niov_dma_addr,		\
	.pp_init = niov_k_op_pp_init,				\
	.resources = niov_k_op_resources,			\
	.rx_alloc = niov_k_op_rx_alloc,				\
	.rx_free = niov_k_op_rx_free,				\
	.fault_arm = niov_k_op_fault_arm,			\
	.fault_calls = niov_k_op_fault_calls

#endif /* NIOV_K_COMMON_OPS_H */
