/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adapter.h - what every era's adapter shares, included by the adapter
 * after the tree's devmem.c (so the tree's types are known): the ABI-side
 * binding, the map between the code's niov pointers and the suite's niov
 * table indices, extack copying, guarded calls, and the v2 resource and
 * fault ops.
 *
 * Niov indices: the suite numbers niovs consecutively in sg order from 0.
 * The code keeps them in one or several arrays (a gen_pool chunk each, or
 * one area); each array is registered with the index of its first niov.
 * A pointer in no registered array (a garbage tx_vec entry, say) maps to
 * an index past the table - the suite reports it - and is never read.
 */
#ifndef NIOV_K_ADAPTER_H
#define NIOV_K_ADAPTER_H

#include "runtime.h"
#include "libc_bridge.h"

/* An index no table has: what a pointer outside every niov array becomes. */
#define NIOV_K_FOREIGN_NIOV	(1ULL << 62)
/* The answer of an op that kernel code stopped with BUG(): no devmem errno. */
#define NIOV_K_EBUG		(-131)	/* ENOTRECOVERABLE */

struct niov_k_array {
	struct net_iov *base;
	u64 count;
	u64 first;		/* suite index of base[0] */
	u64 sort_key;		/* dmabuf offset of base[0] (sg order) */
};

struct niov_k_binding {
	struct net_devmem_dmabuf_binding *b;
	struct niov_impl_config cfg;
	u32 dir;
	int fd;
	u32 niov_shift;
	u64 num_niovs;
	u32 rxq;		/* the rx queue an RX binding is bound to */
	u32 nr_arrays, cap_arrays;
	struct niov_k_array *arrays;	/* in sg order, numbered from 0 */
	struct niov_k_array *by_addr;	/* the same, by base address: pointer -> index */
};

/* The netlink socket the binds hang their bindings on (6.16 on). */
static struct netdev_nl_sock niov_k_nl_sock = {
	.bindings = LIST_HEAD_INIT(niov_k_nl_sock.bindings),
};

static inline bool niov_k_add_array(struct niov_k_binding *kb, struct net_iov *base,
				    u64 count, u64 sort_key)
{
	struct niov_k_array *n;

	if (kb->nr_arrays == kb->cap_arrays) {
		u32 cap = kb->cap_arrays ? kb->cap_arrays * 2 : 8;

		n = niov_libc_malloc(cap * sizeof(*n));
		if (!n)
			return false;
		if (kb->nr_arrays)
			memcpy(n, kb->arrays, kb->nr_arrays * sizeof(*n));
		niov_libc_free(kb->arrays);
		kb->arrays = n;
		kb->cap_arrays = cap;
	}
	kb->arrays[kb->nr_arrays].base = base;
	kb->arrays[kb->nr_arrays].count = count;
	kb->arrays[kb->nr_arrays].sort_key = sort_key;
	kb->nr_arrays++;
	return true;
}

static int niov_k_by_key(const void *a, const void *b)
{
	const struct niov_k_array *x = a, *y = b;

	return x->sort_key < y->sort_key ? -1 : x->sort_key > y->sort_key;
}

static int niov_k_by_base(const void *a, const void *b)
{
	const struct niov_k_array *x = a, *y = b;

	return (uintptr_t)x->base < (uintptr_t)y->base ? -1 : (uintptr_t)x->base > (uintptr_t)y->base;
}

/*
 * Put the arrays in sg order, number their niovs from 0, and keep a copy
 * ordered by address: a binding of thousands of sg entries has thousands
 * of gen_pool chunks, and both maps are asked once per niov a sweep or a
 * probe touches, so both are binary searches.
 */
static inline void niov_k_number_arrays(struct niov_k_binding *kb)
{
	u32 i;
	u64 next = 0;

	niov_libc_sort(kb->arrays, kb->nr_arrays, sizeof(*kb->arrays), niov_k_by_key);
	for (i = 0; i < kb->nr_arrays; i++) {
		kb->arrays[i].first = next;
		next += kb->arrays[i].count;
	}
	kb->num_niovs = next;
	niov_libc_free(kb->by_addr);
	kb->by_addr = niov_libc_malloc((kb->nr_arrays ? kb->nr_arrays : 1) * sizeof(*kb->by_addr));
	if (!kb->by_addr) {
		niov_libc_report("out of memory mapping the niov table");
		return;
	}
	memcpy(kb->by_addr, kb->arrays, kb->nr_arrays * sizeof(*kb->arrays));
	niov_libc_sort(kb->by_addr, kb->nr_arrays, sizeof(*kb->by_addr), niov_k_by_base);
}

/* The suite's index of @niov; NIOV_K_FOREIGN_NIOV when it is in no array. */
static inline u64 niov_k_index(const struct niov_k_binding *kb, const struct net_iov *niov)
{
	uintptr_t p = (uintptr_t)niov;
	u32 lo = 0, hi = kb->by_addr ? kb->nr_arrays : 0;

	while (lo < hi) {	/* the last array whose base is at or below p */
		u32 mid = lo + (hi - lo) / 2;

		if ((uintptr_t)kb->by_addr[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		const struct niov_k_array *a = &kb->by_addr[lo - 1];
		uintptr_t base = (uintptr_t)a->base;

		if (p < base + a->count * sizeof(struct net_iov) && (p - base) % sizeof(struct net_iov) == 0)
			return a->first + (p - base) / sizeof(struct net_iov);
	}
	return NIOV_K_FOREIGN_NIOV;
}

static inline struct net_iov *niov_k_niov(const struct niov_k_binding *kb, u64 idx)
{
	u32 lo = 0, hi = kb->nr_arrays;

	while (lo < hi) {	/* the last array whose first index is at or below idx */
		u32 mid = lo + (hi - lo) / 2;

		if (kb->arrays[mid].first <= idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && idx - kb->arrays[lo - 1].first < kb->arrays[lo - 1].count)
		return &kb->arrays[lo - 1].base[idx - kb->arrays[lo - 1].first];
	return NULL;
}

/* The binding whose arrays hold @niov, among the live ones. */
#define NIOV_K_MAX_LIVE	16
static struct niov_k_binding *niov_k_live[NIOV_K_MAX_LIVE];

static inline bool niov_k_known(const struct net_iov *niov)
{
	unsigned int i;

	for (i = 0; i < NIOV_K_MAX_LIVE; i++) {
		if (niov_k_live[i] && niov_k_index(niov_k_live[i], niov) != NIOV_K_FOREIGN_NIOV)
			return true;
	}
	return false;
}

static inline void niov_k_set_live(struct niov_k_binding *kb, bool live)
{
	unsigned int i;

	for (i = 0; i < NIOV_K_MAX_LIVE; i++) {
		if (live ? !niov_k_live[i] : niov_k_live[i] == kb) {
			niov_k_live[i] = live ? kb : NULL;
			return;
		}
	}
}

/*
 * The rx queue an RX bind takes: the first with no memory provider, so that
 * bindings alive at once do not collide on one queue (netlink's user names
 * the queue; the suite's scenarios do not).
 */
static inline u32 niov_k_free_rxq(struct net_device *dev)
{
	u32 i;

	for (i = 0; i + 1 < dev->real_num_rx_queues; i++) {
		if (!__netif_get_rx_queue(dev, i)->mp_params.mp_priv)
			break;
	}
	return i;
}

/*
 * What netdev_nl_bind_rx_doit() does after the bind: open the queue, whose
 * restart builds the page_pool and runs the provider's init.  The handler
 * unbinds at once when that fails and answers the queue's errno; a suite
 * that asks for the two steps apart (ABI v3 queue_err) gets the binding
 * and the queue's answer instead, and unbinds it itself, so an error is
 * charged to the step that raised it.  Returns what the handler would.
 */
struct niov_k_queue_step {
	bool split;		/* the suite wants the queue's answer apart */
	int err;		/* what opening the queue returned */
};

static inline int niov_k_open_queue(struct niov_k_binding *kb, struct net_devmem_dmabuf_binding *b,
				    struct netlink_ext_ack *extack, struct niov_k_queue_step *q)
{
	struct net_device *dev = niov_k_netdev();

	kb->rxq = niov_k_free_rxq(dev);
	q->err = net_devmem_bind_dmabuf_to_queue(dev, kb->rxq, b, extack);
	if (!q->err || q->split)
		return 0;
	net_devmem_unbind_dmabuf(b);
	return q->err;
}

static inline void niov_k_queue_step_init(struct niov_k_queue_step *q, const struct niov_impl_config *cfg,
					  const struct niov_bind_args *args)
{
	q->split = cfg->abi_version >= 3 && args->dir == NIOV_DIR_RX && args->queue_err;
	q->err = 0;
}

static inline void niov_k_queue_step_out(const struct niov_k_queue_step *q, const struct niov_bind_args *args)
{
	if (q->split)
		*args->queue_err = q->err;
}

static inline struct niov_k_binding *niov_k_binding_new(const struct niov_impl_config *cfg, u32 dir)
{
	struct niov_k_binding *kb = niov_libc_malloc(sizeof(*kb));

	if (!kb)
		return NULL;
	niov_libc_memzero(kb, sizeof(*kb));
	kb->cfg = *cfg;
	kb->dir = dir;
	kb->fd = -1;
	return kb;
}

static inline void niov_k_binding_free(struct niov_k_binding *kb)
{
	niov_k_set_live(kb, false);
	niov_libc_free(kb->by_addr);
	niov_libc_free(kb->arrays);
	niov_libc_free(kb);
}

static inline void niov_k_extack_out(const struct netlink_ext_ack *extack,
				     const struct niov_bind_args *args)
{
	size_t n;

	if (!args->extack || !args->extack_len)
		return;
	args->extack[0] = 0;
	if (!extack->_msg)
		return;
	n = min_t(size_t, strlen(extack->_msg), args->extack_len - 1);
	memcpy(args->extack, extack->_msg, n);
	args->extack[n] = 0;
}

static inline void niov_k_extack_say(const struct niov_bind_args *args, const char *msg)
{
	struct netlink_ext_ack extack = { ._msg = msg };

	niov_k_extack_out(&extack, args);
}

/*
 * The suite's memory cap on a bind (model/config.hpp kMaxNiovTable, step 5
 * of model/RULES.md): the model answers -ENOMEM past 2^24 niovs, as a
 * stand-in for a failing kvmalloc.  The real code only fails above INT_MAX
 * bytes an allocation (and gen_pool eras allocate per sg entry), so between
 * the two it would bind what the model refuses - a difference that is the
 * suite's limit, not the kernel's - and eat gigabytes doing it.  Such binds
 * are not run: NIOV_E_NOT_REPRESENTABLE, with an extack saying why.  The
 * count is taken over the dmabuf size and over the sg entries, whichever is
 * larger (a table the code would size from either).
 */
#define NIOV_K_MAX_NIOV_TABLE	(1ULL << 24)

static inline bool niov_k_over_cap(const struct niov_bind_args *args, u64 size, unsigned int shift)
{
	static char msg[192];
	u64 seg_bytes = 0, niovs;
	u32 i;

	for (i = 0; i < args->nr_segs; i++)
		seg_bytes = seg_bytes + args->segs[i].len < seg_bytes ? U64_MAX : seg_bytes + args->segs[i].len;
	niovs = max_t(u64, size, seg_bytes) >> shift;
	if (niovs <= NIOV_K_MAX_NIOV_TABLE)
		return false;
	niov_k_snprintf(msg, sizeof(msg),
			"not run: %llu niovs is past the suite's memory cap of 2^24 "
			"(the model's kvmalloc stand-in, RULES.md step 5), not a kernel limit",
			(unsigned long long)niovs);
	niov_k_extack_say(args, msg);
	return true;
}

/*
 * The niov shift a bind that sizes TX niovs itself is likely to pick, for
 * the memory cap only: the largest power of two up to 2 MiB aligning the
 * dmabuf and every sg entry, at least a page.  A guess (the code decides,
 * and is judged on what it decides); a code whose sizing is off binds more
 * niovs than guessed, which its allocations then refuse.
 */
static inline unsigned int niov_k_auto_shift_guess(const struct niov_bind_args *args)
{
	u64 bits = args->dmabuf_size | SZ_2M;
	u32 i;

	for (i = 0; i < args->nr_segs; i++)
		bits |= args->segs[i].addr | args->segs[i].len;
	return max_t(unsigned int, (unsigned int)__builtin_ctzll(bits), (unsigned int)PAGE_SHIFT);
}

/*
 * An empty sg entry at DMA address 0, which no DMA mapping hands out: gen_pool
 * makes it a chunk whose end_addr wraps to U64_MAX, so it claims every
 * address and gen_pool_free() clears bits past its empty bitmap - memory
 * corruption the runtime cannot contain, and a report on the fake exporter
 * rather than on the kernel.  Such binds are not run.  (Entries that wrap
 * past 2^64 or overlap are run: the model predicts what gen_pool does.)
 */
static inline bool niov_k_unmappable(const struct niov_bind_args *args)
{
	static char msg[128];
	u32 i;

	for (i = 0; i < args->nr_segs; i++) {
		if (args->segs[i].len || args->segs[i].addr)
			continue;
		niov_k_snprintf(msg, sizeof(msg),
				"not run: sg entry %u is empty at DMA address 0; no DMA mapping makes it", i);
		niov_k_extack_say(args, msg);
		return true;
	}
	return false;
}

/*
 * Binds that size a table from the dmabuf and fill it from the sg entries
 * trust the exporter to make the two agree.  gen_pool TX (era b) sizes
 * tx_vec so; the freelist bind (era c) sizes its whole area so, in both
 * directions.  Entries holding more niovs write past the table; fewer leave
 * tx_vec entries that a lookup reads uninitialised (the freelist area is
 * zeroed, so on RX fewer is only niovs never handed out).  Both corrupt
 * memory on a lying exporter (bind.sg_covers_dmabuf, a known finding), so
 * they are not run.  What the freelist bind refuses before it touches the
 * area (a dmabuf size that is not whole niovs; for fewer, an entry that is
 * not) is still run: the code's answer there is worth comparing, and a
 * tree without those checks writes out of bounds where the runtime's
 * redzones see it.  @shift 0: the code picks the niov size itself (TX
 * auto-sizing), so the sg bytes are compared with the dmabuf's instead.
 */
enum niov_k_table {
	NIOV_K_TX_VEC_FROM_SIZE,	/* tx_vec only (gen_pool TX) */
	NIOV_K_AREA_FROM_SIZE,		/* the niov area and tx_vec (freelist) */
};

static inline bool niov_k_table_overrun(const struct niov_bind_args *args, unsigned int shift,
					enum niov_k_table table)
{
	static char msg[224];
	u64 unit = shift ? 1ULL << shift : 1, entries = 0, slots = args->dmabuf_size / unit;
	bool whole = true, more, fewer;
	const char *what;
	u32 i;

	if (table == NIOV_K_TX_VEC_FROM_SIZE && args->dir != NIOV_DIR_TX)
		return false;
	if (table == NIOV_K_AREA_FROM_SIZE && args->dmabuf_size % unit)
		return false;
	for (i = 0; i < args->nr_segs; i++) {
		u64 n = args->segs[i].len / unit;

		entries = entries + n < entries ? U64_MAX : entries + n;
		whole &= args->segs[i].len % unit == 0;
	}
	more = entries > slots;
	fewer = entries < slots && args->dir == NIOV_DIR_TX && (whole || table == NIOV_K_TX_VEC_FROM_SIZE);
	if (!more && !fewer)
		return false;
	what = table == NIOV_K_TX_VEC_FROM_SIZE ? "tx_vec" : "the niov area";
	niov_k_snprintf(msg, sizeof(msg),
			"not run: the sg entries hold %llu %s, %s %llu: the bind would %s %s "
			"(an exporter whose table does not add up)",
			(unsigned long long)entries, shift ? "niovs" : "bytes", what, (unsigned long long)slots,
			more ? "write past" : "leave unset entries of", more ? what : "tx_vec");
	niov_k_extack_say(args, msg);
	return true;
}

#ifdef NIOV_K_TX_ERA
/*
 * skbuff.c's references on a net_iov for the fill: on niovs the adapter
 * knows; anything else is counted but never dereferenced.  Trees with
 * get_netmem() inline over __get_netmem() (NIOV_K_NETMEM_OUTLINE_GET) call
 * the latter for net_iovs only.
 */
#ifdef NIOV_K_NETMEM_OUTLINE_GET
#define NIOV_K_GET_NETMEM	__get_netmem
#define NIOV_K_PUT_NETMEM	__put_netmem
#else
#define NIOV_K_GET_NETMEM	get_netmem
#define NIOV_K_PUT_NETMEM	put_netmem
#endif
void NIOV_K_GET_NETMEM(netmem_ref netmem)
{
	struct net_iov *niov;

	if (!netmem_is_net_iov(netmem))
		return;
	niov = niov_k_netmem_niov(netmem);
	niov_k_res.niov_refs++;
	if (niov_k_known(niov))
		net_devmem_get_net_iov(niov);
}

#ifdef NIOV_K_NEED_NETMEM_INC_REF
void netmem_inc_ref(netmem_ref netmem)
{
	get_netmem(netmem);
}
#endif

void NIOV_K_PUT_NETMEM(netmem_ref netmem)
{
	struct net_iov *niov;

	if (!netmem_is_net_iov(netmem))
		return;
	niov = niov_k_netmem_niov(netmem);
	niov_k_res.niov_refs--;
	if (niov_k_known(niov))
		net_devmem_put_net_iov(niov);
}
#endif

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

#endif /* NIOV_K_ADAPTER_H */
