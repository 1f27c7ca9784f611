// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c - preset "baseline": the gen_pool-era devmem (about v6.18,
 * with the 2026 stable fix that rejects TX dmabufs and sg entries which
 * are not PAGE_SIZE multiples).
 *
 * There is no rx-buf-size attribute: every niov is PAGE_SIZE.  Only TX
 * checks the dmabuf size, the sg entries are checked by length only (their
 * addresses go into a gen_pool as they are), and nothing counts niovs
 * against U32_MAX.  TX looks niovs up by page, charges PAGE_SIZE per frag
 * and never clamps a frag to the device.  The code is common/devmem_era.h.
 */
#include "devmem_era.h"

static const struct niov_impl_ops devmem_era_ops = {
	DEVMEM_ERA_OPS,
	.name = "baseline",
	.description = "gen_pool-era devmem: PAGE_SIZE niovs, length-only sg check, "
		       "TX-only size check, no rx-buf-size",
	.rules = "baseline",
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
};

static const struct devmem_era era = {
	.bind = DEVMEM_BIND_GENPOOL,
};
