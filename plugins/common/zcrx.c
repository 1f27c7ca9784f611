// SPDX-License-Identifier: GPL-2.0
/*
 * zcrx.c - io_uring zcrx's rx_buf_len checks at ifq registration.
 *
 * Only the checks that need no device: the suite applies the device's
 * rx_page_size rules (RULES.md bind step 7) itself.
 */
#include "devmem_common.h"

/*
 * @area_max_shift: the largest shift every chunk of the area is aligned to
 * (io_area_max_shift()); a niov may not straddle two chunks.
 */
static int io_zcrx_check_rx_buf_len(u32 rx_buf_len, u32 area_max_shift, bool has_device)
{
	unsigned int niov_shift = PAGE_SHIFT;

	if (rx_buf_len) {
		if (!is_power_of_2(rx_buf_len) || rx_buf_len < PAGE_SIZE)
			return -EINVAL;
		niov_shift = ilog2(rx_buf_len);
	}

	if (niov_shift > area_max_shift)
		return -ERANGE;

	/* no device to program the buffer size into: only PAGE_SIZE works */
	if (!has_device && niov_shift != PAGE_SHIFT)
		return -EOPNOTSUPP;

	return 0;
}

int devmem_op_zcrx_validate(const struct niov_impl_config *cfg, u32 rx_buf_len,
			    u32 area_max_shift, u32 has_device)
{
	niov_shim_configure(cfg);
	return io_zcrx_check_rx_buf_len(rx_buf_len, area_max_shift, has_device != 0);
}
