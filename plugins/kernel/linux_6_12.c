// SPDX-License-Identifier: GPL-2.0
/*
 * linux_6_12.c - preset "linux-6.12": the 6.12 LTS devmem, re-typed.
 *
 * The gen_pool bind of baseline-unfixed on the RX side only: no bind-tx,
 * no io_uring zcrx, no rx-buf-size, no size or sg length check (each sg
 * entry holds len / PAGE_SIZE niovs), page_pool order 0 only, and sg
 * entries whose length does not fit the scatterlist's unsigned int are not
 * representable.  The kernel/ folder builds the real 6.12 code; this one
 * is the second way in, and what the engines' own tests run against.
 */
#include "devmem_era.h"

static const struct niov_impl_ops devmem_era_ops = {
	DEVMEM_ERA_OPS,
	.name = "linux-6.12",
	.description = "6.12 LTS devmem: gen_pool bind, RX only, no sg length check",
	.rules = "linux-6.12",
	.caps = NIOV_CAP_RX | NIOV_CAP_PP_INIT | DEVMEM_V2_CAPS,
};

static const struct devmem_era era = {
	.bind = DEVMEM_BIND_GENPOOL_UNFIXED,
	.rx_only = true,
};
