/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin_test.h - what the kernel plugin tests share: a CHECK that counts
 * failures, the run's configuration, loading the plugin, the resource
 * balance every test ends on, and the closing line and exit status.
 */
#ifndef NIOV_K_PLUGIN_TEST_H
#define NIOV_K_PLUGIN_TEST_H

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "niov_impl.h"

static int failures;

#define CHECK(cond, ...) do {						\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			failures++;					\
		}							\
	} while (0)

static const struct niov_impl_ops *ops;
static struct niov_impl_config cfg = {
	.abi_version = NIOV_IMPL_ABI_VERSION, .page_shift = 12, .max_skb_frags = 17,
	.max_page_order = 10, .mss = 1448,
};

/* argv[1] is the plugin; @nargs the arguments the test takes in all. */
static void load_plugin(int argc, char **argv, int nargs, const char *usage)
{
	void *h;

	if (argc != nargs) {
		fprintf(stderr, "usage: %s %s\n", argv[0], usage);
		exit(2);
	}
	h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		exit(2);
	}
	ops = ((const struct niov_impl_ops *(*)(void))dlsym(h, "niov_impl_get"))();
	CHECK(ops && ops->abi_version == NIOV_IMPL_ABI_VERSION, "not an ABI v%d plugin", NIOV_IMPL_ABI_VERSION);
	if (!ops)
		exit(1);
}

/* Everything the code took is back, and it never warned or stopped. */
static void expect_balanced(const char *when)
{
	struct niov_resources r;

	ops->resources(&r);
	CHECK(r.allocs == 0 && r.alloc_bytes == 0 && r.dmabuf_refs == 0 && r.dma_mappings == 0 &&
	      r.binding_refs == 0 && r.niov_refs == 0 && r.warns == 0 && r.bugs == 0,
	      "%s: left allocs %lld bytes %lld dmabuf %lld maps %lld binding %lld niov %lld warns %lld bugs %lld",
	      when, (long long)r.allocs, (long long)r.alloc_bytes, (long long)r.dmabuf_refs,
	      (long long)r.dma_mappings, (long long)r.binding_refs, (long long)r.niov_refs,
	      (long long)r.warns, (long long)r.bugs);
}

static int test_result(const char *what)
{
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("%s: all checks passed\n", what);
	return failures ? 1 : 0;
}

#endif /* NIOV_K_PLUGIN_TEST_H */
