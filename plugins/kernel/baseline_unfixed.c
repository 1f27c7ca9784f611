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
#define BASELINE_UNFIXED
#define BASELINE_NAME	"baseline-unfixed"
#define BASELINE_RULES	"baseline-unfixed"
#define BASELINE_DESC	"gen_pool-era devmem before the May 2026 fix: no size or sg length check"

#include "baseline.c"
