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

/*
 * io_area_max_shift(): the largest shift every chunk of the area is aligned
 * to - the lowest set bit over the chunk lengths (a niov may not straddle
 * two chunks).
 */
u32 io_area_max_shift(const struct niov_zcrx_args *args)
{
	u32 shift = 63, i;

	for (i = 0; i < args->nr_segs; i++)
		if (args->segs[i].len && __ffs(args->segs[i].len) < shift)
			shift = (u32)__ffs(args->segs[i].len);
	return shift;
}

/*
 * The registration of an io_uring zcrx ifq with its area: the rx_buf_len
 * checks against the area's own alignment, then the area's niov array (one
 * allocation, failing past the model's table limit like the devmem one).
 */
int devmem_op_zcrx_register(const struct niov_impl_config *cfg, const struct niov_zcrx_args *args,
			    u32 *niov_shift, zcrx_area_shift_t area_max_shift)
{
	unsigned int shift;
	int err;

	niov_shim_configure(cfg);	/* before PAGE_SHIFT is read */
	shift = PAGE_SHIFT;
	err = io_zcrx_check_rx_buf_len(args->rx_buf_len, area_max_shift(args), args->has_device != 0);
	if (err)
		return err;
	if (args->rx_buf_len)
		shift = (unsigned int)ilog2(args->rx_buf_len);
	if ((args->area_size >> shift) > NET_DEVMEM_MAX_TABLE)
		return -ENOMEM;
	*niov_shift = shift;
	return 0;
}

int devmem_op_zcrx_register_std(const struct niov_impl_config *cfg, const struct niov_zcrx_args *args,
				u32 *niov_shift)
{
	return devmem_op_zcrx_register(cfg, args, niov_shift, io_area_max_shift);
}
