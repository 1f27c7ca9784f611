// SPDX-License-Identifier: GPL-2.0
/*
 * net_next.c - preset "net-next": devmem in net-next before seed 000.
 *
 * bind-rx takes NETDEV_A_DMABUF_RX_BUF_SIZE; the binding is the freelist
 * one (address and length checked per sg entry, size checked for both
 * directions, -E2BIG for too many niovs).  TX still uses PAGE_SIZE niovs:
 * bind-tx passes PAGE_SHIFT, the lookup is page-granular and every TX frag
 * charges PAGE_SIZE.  Nothing clamps a frag to what the device can send.
 * The code is common/devmem_era.h.
 */
#include "devmem_era.h"

static const struct niov_impl_ops devmem_era_ops = {
	DEVMEM_ERA_OPS,
	.name = "net-next",
	.description = "net-next before seed 000: freelist bind, rx-buf-size, PAGE_SIZE TX niovs",
	.rules = "net-next",
	.caps = NIOV_CAPS_V1 | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC | DEVMEM_V2_CAPS,
};

static const struct devmem_era era = {
	.bind = DEVMEM_BIND_FREELIST,
	.rx_buf_size = true,
};
