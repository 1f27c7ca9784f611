// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_smoke.c - load each plugin named on the command line and drive
 * every op once on a 2M-hugepage-like TX layout.  Checks what does not
 * need the model (the ABI, exports, the niov size the presets pick, that
 * a 64K send is placed whole); the differential testing lives in the C++
 * engines.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "niov_impl.h"

static int failures;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			failures++;					\
			printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}							\
	} while (0)

#define SZ_2M	0x200000ULL
#define SZ_4M	0x400000ULL
#define SZ_6M	0x600000ULL

static const struct niov_impl_config cfg_4k = {
	.abi_version = NIOV_IMPL_ABI_VERSION,
	.page_shift = 12,
	.max_skb_frags = 17,
	.device = NIOV_DEV_NONE,
	.dev_tx_max_frag_size = UINT32_MAX,
	.max_page_order = 10,
};

/* A 6 MiB udmabuf on 2M hugepages: two DMA segments, both 2M-aligned. */
static const struct niov_dma_seg huge_segs[] = {
	{ 0x40000000, SZ_2M },
	{ 0x80200000, SZ_4M },
};

static bool is(const struct niov_impl_ops *ops, const char *name)
{
	return strcmp(ops->name, name) == 0;
}

static bool has(const struct niov_impl_ops *ops, uint32_t cap)
{
	return (ops->caps & cap) == cap;
}

/* The eras without rx-buf-size and with the gen_pool bind. */
static bool genpool_era(const struct niov_impl_ops *ops)
{
	return is(ops, "baseline") || is(ops, "baseline-unfixed") || is(ops, "linux-6.12");
}

/* v2: every kernel-shaped plugin declares its rules, counts, releases and injects. */
static void check_v2(const struct niov_impl_ops *ops)
{
	CHECK(ops->rules && ops->caps);
	CHECK(ops->frag_release && ops->resources && ops->rx_alloc && ops->rx_free &&
	      ops->zcrx_register && ops->fault_arm && ops->fault_calls);
	CHECK(has(ops, NIOV_CAP_RX | NIOV_CAP_RX_ALLOC | NIOV_CAP_FAULTS | NIOV_CAP_PP_INIT));
}

static void check_abi(void *handle, const struct niov_impl_ops *ops)
{
	CHECK(ops->abi_version == NIOV_IMPL_ABI_VERSION);
	CHECK(ops->name && ops->description);
	CHECK(ops->bind && ops->unbind && ops->niov_shift && ops->num_niovs &&
	      ops->niov_dma_addr && ops->get_niov_at && ops->fill);
	CHECK(ops->pp_init && ops->zcrx_validate && ops->encode_tx_desc);
	check_v2(ops);
	/* -fvisibility=hidden: the shim stays inside the plugin */
	CHECK(!dlsym(handle, "iov_iter_advance"));
	CHECK(!dlsym(handle, "niov_shim_configure"));
}

static void tx_huge(const struct niov_impl_ops *ops)
{
	static const uint64_t probes[] = { 0, 0x1000, 0x1ff000, 0x200000, 0x5fffff, 0x600000 };
	struct niov_bind_args args = {
		.dir = NIOV_DIR_TX,
		.nr_segs = 2,
		.dmabuf_size = SZ_6M,
		.segs = huge_segs,
	};
	struct niov_frag frags[17];
	struct niov_skb skb = { .frags = frags };
	struct niov_iov iov = { 0x1ff000, 0x10000 };
	struct niov_iov_iter it = { &iov, 1, 0, 0x10000 };
	void *b = NULL;
	uint32_t shift;
	uint64_t idx, off, size, addr;
	size_t k;
	int err;

	err = ops->bind(&cfg_4k, &args, &b);
	CHECK(err == 0);
	if (err) {
		printf("  tx bind: %d\n", err);
		return;
	}
	shift = ops->niov_shift(b);
	printf("  tx bind 6M hugetlb: niov_shift %" PRIu32 ", %" PRIu64 " niovs\n",
	       shift, ops->num_niovs(b));
	if (is(ops, "tx-autosize"))
		CHECK(shift == 21);
	if (is(ops, "net-next") || genpool_era(ops))
		CHECK(shift == 12);

	for (idx = 0; idx < 3; idx++) {
		err = ops->niov_dma_addr(b, idx, &addr);
		CHECK(err == 0);
		printf("  niov %" PRIu64 " dma %#" PRIx64 "\n", idx, err ? 0 : addr);
	}
	CHECK(ops->niov_dma_addr(b, ops->num_niovs(b), &addr) == -EINVAL);

	for (k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
		err = ops->get_niov_at(b, probes[k], &idx, &off, &size);
		if (err)
			printf("  get_niov_at(%#" PRIx64 ") = %d\n", probes[k], err);
		else
			printf("  get_niov_at(%#" PRIx64 ") = niov %" PRIu64 " off %#" PRIx64
			       " size %#" PRIx64 "\n", probes[k], idx, off, size);
		CHECK((err == -EFAULT) == (probes[k] >= SZ_6M));
	}

	err = ops->fill(b, &skb, &it, 0x10000);
	printf("  fill 64K @0x1ff000: %d, %" PRIu32 " frags, len %" PRIu32
	       ", truesize %" PRIu32 "\n", err, skb.nr_frags, skb.len, skb.truesize);
	for (k = 0; k < skb.nr_frags; k++)
		printf("    frag %zu: niov %" PRIu64 " off %#" PRIx32 " len %#" PRIx32
		       " truesize %#" PRIx32 "\n", k, frags[k].niov, frags[k].off,
		       frags[k].len, frags[k].truesize);
	CHECK(err == 0 && skb.len == 0x10000);
	CHECK(it.count == 0 && it.nr_segs == 0 && it.iov_offset == 0);
	if (is(ops, "tx-autosize"))
		CHECK(skb.nr_frags == 2 && skb.truesize == 0x10000);
	if (is(ops, "net-next"))
		CHECK(skb.nr_frags == 16 && skb.truesize == 16 * 4096);

	ops->unbind(b);
}

/* Segments adding up to more, or less, than the dmabuf. */
static void tx_coverage(const struct niov_impl_ops *ops)
{
	static const struct niov_dma_seg over[] = { { 0, SZ_2M }, { SZ_2M, SZ_4M } };
	struct niov_bind_args args = {
		.dir = NIOV_DIR_TX,
		.nr_segs = 2,
		.dmabuf_size = SZ_4M,
		.segs = over,
	};
	uint64_t idx, off, size, addr, n;
	void *b = NULL;

	CHECK(ops->bind(&cfg_4k, &args, &b) == 0);
	if (b) {
		n = ops->num_niovs(b);
		CHECK(ops->niov_dma_addr(b, n - 1, &addr) == 0);
		CHECK(ops->niov_dma_addr(b, n, &addr) == -EINVAL);
		ops->unbind(b);
	}

	args.nr_segs = 1;
	args.dmabuf_size = 0x600000;
	b = NULL;
	CHECK(ops->bind(&cfg_4k, &args, &b) == 0);
	if (b) {
		n = ops->num_niovs(b);
		/*
		 * past the one segment: no niov there, but the lookup still
		 * names it (before the May 2026 fix the table holds only the
		 * segment's niovs: the lookup names one past it)
		 */
		CHECK(ops->get_niov_at(b, 0x5ff000, &idx, &off, &size) == 0);
		if (is(ops, "baseline-unfixed")) {
			CHECK(n == SZ_2M / 4096 && idx == SZ_6M / 4096 - 1);
		} else {
			CHECK(ops->niov_dma_addr(b, n - 1, &addr) == -EINVAL);
			if (!ops->must_catch)
				CHECK(idx == n - 1);
		}
		ops->unbind(b);
	}
}

static void rx(const struct niov_impl_ops *ops)
{
	struct niov_bind_args args = {
		.dir = NIOV_DIR_RX,
		.has_rx_buf_size = 1,
		.rx_buf_size = 0x8000,
		.nr_segs = 2,
		.dmabuf_size = SZ_6M,
		.segs = huge_segs,
	};
	void *b = NULL;
	int err;

	err = ops->bind(&cfg_4k, &args, &b);
	printf("  rx bind rx-buf-size 32K: %d", err);
	if (genpool_era(ops)) {
		CHECK(err == -EINVAL);
		printf("\n");
		return;
	}
	CHECK(err == 0);
	if (err) {
		printf("\n");
		return;
	}
	printf(", niov_shift %" PRIu32 ", pp_init(3) %d, pp_init(0) %d\n",
	       ops->niov_shift(b), ops->pp_init(b, 3), ops->pp_init(b, 0));
	CHECK(ops->niov_shift(b) == 15);
	CHECK(ops->pp_init(b, 3) == 0 && ops->pp_init(b, 0) == -E2BIG);
	ops->unbind(b);

	args.dir = NIOV_DIR_TX;
	CHECK(ops->bind(&cfg_4k, &args, &b) == -EINVAL);	/* no such TX attribute */
}

/* v2: a bind and its unbind leave the counters where they were. */
static void resources(const struct niov_impl_ops *ops)
{
	struct niov_bind_args args = {
		.dir = NIOV_DIR_RX,
		.nr_segs = 2,
		.dmabuf_size = SZ_6M,
		.segs = huge_segs,
	};
	struct niov_resources before, during, after;
	uint64_t idx, virt, dma;
	void *b = NULL;

	ops->resources(&before);
	CHECK(ops->bind(&cfg_4k, &args, &b) == 0);
	if (!b)
		return;
	ops->resources(&during);
	CHECK(during.allocs > before.allocs && during.dmabuf_refs > before.dmabuf_refs);
	CHECK(ops->rx_alloc(b, &idx, &virt, &dma) == 0);
	CHECK(virt == idx << 12);
	ops->rx_free(b, idx);
	ops->unbind(b);
	ops->resources(&after);
	CHECK(after.allocs == before.allocs && after.alloc_bytes == before.alloc_bytes &&
	      after.dmabuf_refs == before.dmabuf_refs && after.dma_mappings == before.dma_mappings &&
	      after.binding_refs == before.binding_refs && after.warns == before.warns);
}

static void zcrx(const struct niov_impl_ops *ops)
{
	CHECK(ops->zcrx_validate(&cfg_4k, 0, 12, 1) == 0);
	CHECK(ops->zcrx_validate(&cfg_4k, 3000, 21, 1) == -EINVAL);
	CHECK(ops->zcrx_validate(&cfg_4k, 0x2000, 12, 1) == -ERANGE);
	CHECK(ops->zcrx_validate(&cfg_4k, 0x2000, 21, 0) == -EOPNOTSUPP);
	CHECK(ops->zcrx_validate(&cfg_4k, 0x2000, 21, 1) == 0);
}

static void encode(const struct niov_impl_ops *ops)
{
	struct niov_impl_config cfg = cfg_4k;
	uint32_t lens[8];
	int n;

	cfg.device = NIOV_DEV_BNXT;
	n = ops->encode_tx_desc(&cfg, 0x10000, lens, 8);
	CHECK(n == 1 && lens[0] == 0);
	n = ops->encode_tx_desc(&cfg, 70000, lens, 8);
	CHECK(n == 1 && lens[0] == 70000 - 65536);

	cfg.device = NIOV_DEV_GVE;
	n = ops->encode_tx_desc(&cfg, 40000, lens, 8);
	CHECK(n == 3 && lens[0] == 16383 && lens[1] == 16383 && lens[2] == 7234);
	n = ops->encode_tx_desc(&cfg, 0, lens, 8);
	CHECK(n == 0);	/* gve writes descriptors while bytes are left */
	/* snprintf-like: the full count, only @max lengths stored */
	lens[2] = 0xdead;
	n = ops->encode_tx_desc(&cfg, 0x200000, lens, 2);
	CHECK(n == 129 && lens[0] == 16383 && lens[2] == 0xdead);

	cfg.device = NIOV_DEV_FBNIC;
	CHECK(ops->encode_tx_desc(&cfg, 0x10000, lens, 8) == -ENOMEM);
	n = ops->encode_tx_desc(&cfg, 0xffff, lens, 8);
	CHECK(n == 1 && lens[0] == 0xffff);

	cfg.device = NIOV_DEV_MLX5;
	n = ops->encode_tx_desc(&cfg, 0x200000, lens, 8);
	CHECK(n == 1 && lens[0] == 0x200000);
}

static void smoke(const char *path)
{
	const struct niov_impl_ops *(*get)(void);
	const struct niov_impl_ops *ops;
	void *handle;

	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		printf("%s: %s\n", path, dlerror());
		failures++;
		return;
	}
	*(void **)&get = dlsym(handle, "niov_impl_get");
	if (!get) {
		printf("%s: no niov_impl_get\n", path);
		failures++;
		dlclose(handle);
		return;
	}
	ops = get();
	printf("%s: %s - %s%s%s\n", path, ops->name, ops->description,
	       ops->must_catch ? "; must catch " : "", ops->must_catch ? ops->must_catch : "");

	check_abi(handle, ops);
	/*
	 * A broken variant is wrong on purpose somewhere; the differential
	 * tests judge it.  Here it only has to load and keep the ABI.
	 */
	if (ops->must_catch) {
		dlclose(handle);
		return;
	}
	if (has(ops, NIOV_CAP_TX)) {
		tx_huge(ops);
		tx_coverage(ops);
	}
	rx(ops);
	resources(ops);
	zcrx(ops);
	encode(ops);

	dlclose(handle);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s plugin.so...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		smoke(argv[i]);

	printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
