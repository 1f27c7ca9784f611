/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - force-included (-include) into every kernel file a kernel
 * plugin compiles: the kernel vocabulary those files expect from the
 * headers the build shadows with empty files.  The real headers on the
 * allowlist (kernel/tool/allowlist.cpp) come from the tree itself.
 *
 * Configuration the files test: devmem on, page_pool on, 64-bit DMA.
 */
#ifndef NIOV_KSHIM_H
#define NIOV_KSHIM_H

#define __KERNEL__ 1
#define CONFIG_NET_DEVMEM 1
#define CONFIG_PAGE_POOL 1
#define CONFIG_64BIT 1
#define CONFIG_ARCH_DMA_ADDR_T_64BIT 1
#define CONFIG_PHYS_ADDR_T_64BIT 1
#define CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG 1
#define CONFIG_MMU 1

#include "k_types.h"
#include "k_math.h"
#include "k_bug.h"
#include "k_alloc.h"
#include "k_sync.h"
#include "k_list.h"
#include "k_bitmap.h"
#include "k_xarray.h"
#include "k_mm.h"
#include "k_dma.h"
#include "../../plugins/include/niov_impl.h"
#include "k_net.h"

#endif /* NIOV_KSHIM_H */
