// SPDX-License-Identifier: GPL-2.0
/*
 * tx_autosize.c - preset "tx-autosize": net-next with all of seed 000.
 *
 *  - patch 2: a TX frag charges its length to truesize, not PAGE_SIZE;
 *  - patch 3: net_devmem_get_niov_at() works in niov_shift units;
 *  - patch 4/5: frags are clamped to the device's netmem TX frag size
 *    (cfg->dev_tx_max_frag_size, 32K for bnxt), read at bind time;
 *  - patch 6: bind-tx passes niov_shift 0 and the bind picks the largest
 *    power of two up to 2M that aligns the dmabuf size and every sg
 *    entry's address and length.
 *
 * The code is common/devmem_era.h.  plugins/broken/ compiles this file
 * again with one slip each: a variant defines one of that file's slip
 * hooks, and its name, before including this one.
 */
#ifndef NIOV_PLUGIN_NAME
#define NIOV_PLUGIN_NAME	"tx-autosize"
#define NIOV_PLUGIN_DESC	"seed 000 complete: TX niovs sized from the sg table, " \
				"niov_shift lookup, truesize = frag length, device max frag"
#define NIOV_PLUGIN_MUST_CATCH	NULL
#endif
#ifndef NIOV_PLUGIN_POLICY
#define NIOV_PLUGIN_POLICY	NULL
#endif

/*
 * NET_DEVMEM_GENPOOL_BASE puts patch 6 on the gen_pool-era checks instead
 * of the freelist ones: entries by length only, TX-only size check, no
 * count limit.
 */
#ifdef NET_DEVMEM_GENPOOL_BASE
#define NET_DEVMEM_SG_ALIGNED(dma, len, size)	IS_ALIGNED(len, size)
#define NET_DEVMEM_SIZE_CHECKED(direction)	((direction) == DMA_TO_DEVICE)
#define NET_DEVMEM_COUNT_CHECKED		false
#endif

#include "devmem_era.h"

static const struct niov_impl_ops devmem_era_ops = {
	DEVMEM_ERA_OPS,
	.name = NIOV_PLUGIN_NAME,
	.description = NIOV_PLUGIN_DESC,
	.must_catch = NIOV_PLUGIN_MUST_CATCH,
	.policy = NIOV_PLUGIN_POLICY,
	.rules = "tx-autosize",
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
};

static const struct devmem_era era = {
	.bind = DEVMEM_BIND_FREELIST,
	.rx_buf_size = true,
	.tx_truesize_len = true,
	.lookup_niov_shift = true,
	.tx_clamp_device = true,
	.tx_autosize = true,
};

/* The names an ops table of another layout (NIOV_PLUGIN_CUSTOM_OPS) uses. */
#define tx_autosize_bind	devmem_era_bind
#define tx_autosize_get_niov_at	devmem_era_get_niov_at
#define tx_autosize_fill	devmem_era_fill
#define tx_autosize_pp_init	devmem_era_pp_init
