// SPDX-License-Identifier: GPL-2.0
/*
 * baseline_unfixed.c - preset "baseline-unfixed": the gen_pool-era devmem
 * with TX (6.16 to 7.0) before the May 2026 fix that rejects dmabufs and
 * sg entries which are not PAGE_SIZE multiples.
 *
 * baseline.c without the two checks: a dmabuf with a partial last page
 * binds (tx_vec has size / PAGE_SIZE entries, so the last page's lookup
 * reads past it) and an sg entry that is not whole pages gives len /
 * PAGE_SIZE niovs, the niovs after it no longer where their index says.
 */
#include "devmem_era.h"

static const struct niov_impl_ops devmem_era_ops = {
	DEVMEM_ERA_OPS,
	.name = "baseline-unfixed",
	.description = "gen_pool-era devmem before the May 2026 fix: no size or sg length check",
	.rules = "baseline-unfixed",
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
};

static const struct devmem_era era = {
	.bind = DEVMEM_BIND_GENPOOL_UNFIXED,
};
