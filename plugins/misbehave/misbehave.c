// SPDX-License-Identifier: GPL-2.0
/*
 * misbehave.c - the tx-autosize plugin with one misbehaviour in one
 * operation, for the test that no engine ever calls such a plugin clean
 * (plugins/tests/misbehave_test.sh).
 *
 * Built once per (MB_HOW, MB_OP) pair as libniov_mb_<how>_<op>.so (see
 * plugins/CMakeLists.txt): MB_HOW is what goes wrong, MB_OP the operation
 * it goes wrong in.  Every other call is the correct plugin's, so whatever
 * the engines report comes from the misbehaviour alone.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "niov_impl.h"

/* What goes wrong (MB_HOW). */
#define MB_EXIT		1	/* exit(0): the process ends "successfully" */
#define MB_UNDER_EXIT	2	/* _exit(0): no atexit handlers either */
#define MB_ABORT	3	/* abort() */
#define MB_SEGV		4	/* a store through NULL */
#define MB_LOOP		5	/* never returns */
#define MB_STDOUT	6	/* prints to stdout, then answers correctly */
#define MB_LEAK		7	/* keeps 4 KiB per call, then answers correctly */
#define MB_FRAGS_PAST	8	/* fill writes a frag past MAX_SKB_FRAGS */
#define MB_NULL_BINDING	9	/* bind returns 0 with a NULL binding */
#define MB_BAD_ABI	10	/* niov_impl_get reports ABI version 99 */
#define MB_CACHE_ONCE	11	/* keeps 2 KiB once, on the 12th call: a
				 * lazily built cache, not a leak (built
				 * outside the must-be-caught list) */
#define MB_EVIL_NAME	12	/* correct, but names itself with a path
				 * that climbs out of any folder and with
				 * terminal control bytes */

/* Where (MB_OP): the operations of the ABI, and niov_impl_get itself. */
#define MB_GET		1
#define MB_BIND		2
#define MB_UNBIND	3
#define MB_NIOV_SHIFT	4
#define MB_NUM_NIOVS	5
#define MB_NIOV_DMA	6
#define MB_LOOKUP	7
#define MB_FILL		8
#define MB_PP_INIT	9
#define MB_ZCRX		10
#define MB_TX_DESC	11
#define MB_CTOR		12	/* a constructor: runs inside dlopen() */

#if !defined(MB_HOW) || !defined(MB_OP) || !defined(MB_NAME)
#error "build with -DMB_HOW=... -DMB_OP=... -DMB_NAME=\"how_op\""
#endif

/* The correct plugin: kernel/tx_autosize.c built with this name for its get. */
const struct niov_impl_ops *niov_mb_inner_get(void);

static const struct niov_impl_ops *inner;
static struct niov_impl_ops mb_ops;
static volatile int *volatile mb_null;
static void *volatile mb_sink;

static void misbehave(int op)
{
	if (op != MB_OP)
		return;
	switch (MB_HOW) {
	case MB_EXIT:
		exit(0);
	case MB_UNDER_EXIT:
		_exit(0);
	case MB_ABORT:
		abort();
	case MB_SEGV:
		*mb_null = 1;
		break;
	case MB_LOOP:
		for (;;)
			__asm__ volatile("" ::: "memory");
	case MB_STDOUT:
		printf("misbehave: hello from operation %d\n", op);
		break;
	case MB_LEAK:
		/* The next call overwrites the only pointer: a real leak. */
		mb_sink = malloc(4096);
		if (mb_sink)
			memset(mb_sink, 0x5a, 4096);
		break;
	case MB_CACHE_ONCE: {
		static unsigned int calls;

		/* Lands inside leak_check's first measured batch. */
		if (++calls == 12 && !mb_sink)
			mb_sink = malloc(2048);
		break;
	}
	default:	/* misbehaves in its operation's wrapper instead */
		break;
	}
}

__attribute__((constructor)) static void mb_ctor(void)
{
	misbehave(MB_CTOR);
}

static int mb_bind(const struct niov_impl_config *cfg, const struct niov_bind_args *args, void **binding)
{
	misbehave(MB_BIND);
	int err = inner->bind(cfg, args, binding);
	if (MB_HOW == MB_NULL_BINDING && MB_OP == MB_BIND && err == 0) {
		inner->unbind(*binding);
		*binding = NULL;
	}
	return err;
}

static void mb_unbind(void *binding)
{
	misbehave(MB_UNBIND);
	inner->unbind(binding);
}

static uint32_t mb_niov_shift(const void *binding)
{
	misbehave(MB_NIOV_SHIFT);
	return inner->niov_shift(binding);
}

static uint64_t mb_num_niovs(const void *binding)
{
	misbehave(MB_NUM_NIOVS);
	return inner->num_niovs(binding);
}

static int mb_niov_dma_addr(const void *binding, uint64_t idx, uint64_t *addr)
{
	misbehave(MB_NIOV_DMA);
	return inner->niov_dma_addr(binding, idx, addr);
}

static int mb_get_niov_at(const void *binding, uint64_t virt, uint64_t *idx, uint64_t *off, uint64_t *size)
{
	misbehave(MB_LOOKUP);
	return inner->get_niov_at(binding, virt, idx, off, size);
}

static int mb_fill(void *binding, struct niov_skb *skb, struct niov_iov_iter *iter, int length)
{
	misbehave(MB_FILL);
	int err = inner->fill(binding, skb, iter, length);
	if (MB_HOW == MB_FRAGS_PAST && MB_OP == MB_FILL && skb->nr_frags)
		skb->frags[48] = skb->frags[0];	/* MAX_SKB_FRAGS is at most 45 */
	return err;
}

static int mb_pp_init(const void *binding, uint32_t pp_order)
{
	misbehave(MB_PP_INIT);
	return inner->pp_init(binding, pp_order);
}

static int mb_zcrx_validate(const struct niov_impl_config *cfg, uint32_t rx_buf_len, uint32_t area_max_shift,
			    uint32_t has_device)
{
	misbehave(MB_ZCRX);
	return inner->zcrx_validate(cfg, rx_buf_len, area_max_shift, has_device);
}

/* v2: the registration with the area's segments is the zcrx path engines take. */
static int mb_zcrx_register(const struct niov_impl_config *cfg, const struct niov_zcrx_args *args,
			    uint32_t *niov_shift)
{
	misbehave(MB_ZCRX);
	return inner->zcrx_register(cfg, args, niov_shift);
}

static int mb_encode_tx_desc(const struct niov_impl_config *cfg, uint32_t frag_len, uint32_t *lens, uint32_t max)
{
	misbehave(MB_TX_DESC);
	return inner->encode_tx_desc(cfg, frag_len, lens, max);
}

__attribute__((visibility("default"))) const struct niov_impl_ops *niov_impl_get(void)
{
	misbehave(MB_GET);
	inner = niov_mb_inner_get();
	mb_ops = *inner;
	mb_ops.name = "mb_" MB_NAME;
	mb_ops.description = "tx-autosize misbehaving: " MB_NAME;
	mb_ops.must_catch = NULL;
	mb_ops.bind = mb_bind;
	mb_ops.unbind = mb_unbind;
	mb_ops.niov_shift = mb_niov_shift;
	mb_ops.num_niovs = mb_num_niovs;
	mb_ops.niov_dma_addr = mb_niov_dma_addr;
	mb_ops.get_niov_at = mb_get_niov_at;
	mb_ops.fill = mb_fill;
	mb_ops.pp_init = mb_pp_init;
	mb_ops.zcrx_validate = mb_zcrx_validate;
	if (inner->zcrx_register)
		mb_ops.zcrx_register = mb_zcrx_register;
	mb_ops.encode_tx_desc = mb_encode_tx_desc;
	if (MB_HOW == MB_BAD_ABI)
		mb_ops.abi_version = 99;
	if (MB_HOW == MB_EVIL_NAME)
		mb_ops.name = "x/../../../victim\033[2J\033]0;owned\a\r";
	return &mb_ops;
}
