// SPDX-License-Identifier: GPL-2.0
/*
 * tx_desc.c - the length fields each NETMEM_TX driver writes for one frag,
 * so the suite can compare what the NIC reads with what the skb says.
 *
 * Each function returns how many descriptors the driver writes for the
 * frag, or a negative errno where it drops the packet.  Like snprintf(),
 * only the first @max lengths are stored: a 2M frag on gve takes 129
 * descriptors, and the caller's buffer may be smaller than that.
 */
#include "devmem_common.h"

/* mlx5e_txwqe_build_dsegs(): dseg->byte_count = cpu_to_be32(fsz), 32 bits */
static int mlx5e_tx_dseg_len(u32 len, u32 *lens, u32 max)
{
	if (max)
		lens[0] = len;
	return 1;
}

/* The DQO descriptor's buf_size is 14 bits: 16K - 1, not 16K. */
#define GVE_TX_MAX_BUF_SIZE_DQO	((16 * 1024) - 1)

/*
 * gve_tx_fill_pkt_desc_dqo(): one descriptor per 16383-byte piece, written
 * while bytes are left, so an empty buffer takes none.
 */
static int gve_tx_fill_pkt_desc_dqo(u32 len, u32 *lens, u32 max)
{
	u32 n = 0;

	while (len > 0) {
		u32 cur_len = min_t(u32, len, GVE_TX_MAX_BUF_SIZE_DQO);

		if (n < max)
			lens[n] = cur_len;
		n++;
		len -= cur_len;
	}

	return (int)n;
}

/* FBNIC_TWD_LEN_MASK is bits 63:48 of the TX work descriptor */
#define FBNIC_TWD_LEN_MAX	0xffffU

/* fbnic_tx_map(): a buffer the length field cannot hold is a DMA map error */
static int fbnic_tx_map_len(u32 len, u32 *lens, u32 max)
{
	if (len > FBNIC_TWD_LEN_MAX)
		return -ENOMEM;	/* "TX DMA map failed": the packet is dropped */
	if (max)
		lens[0] = len;
	return 1;
}

#define TX_BD_LEN		(0xffffU << 16)
#define TX_BD_LEN_SHIFT		16

/*
 * bnxt_start_xmit(): tx_bd_len_flags_type = (len << TX_BD_LEN_SHIFT) | flags
 * in a u32, with nothing checking len first.  Written out, not reduced to
 * "len & 0xffff", so that this stays what the driver does: the NIC reads
 * the top 16 bits back and a 64 KiB frag becomes 0.
 */
static int bnxt_tx_bd_len(u32 len, u32 *lens, u32 max)
{
	u32 len_flags_type = len << TX_BD_LEN_SHIFT;

	if (max)
		lens[0] = (len_flags_type & TX_BD_LEN) >> TX_BD_LEN_SHIFT;
	return 1;
}

int devmem_op_encode_tx_desc(const struct niov_impl_config *cfg, u32 frag_len,
			     u32 *lens, u32 max)
{
	niov_shim_configure(cfg);

	switch (cfg->device) {
	case NIOV_DEV_NONE:
	case NIOV_DEV_MLX5:
		return mlx5e_tx_dseg_len(frag_len, lens, max);
	case NIOV_DEV_GVE:
		return gve_tx_fill_pkt_desc_dqo(frag_len, lens, max);
	case NIOV_DEV_FBNIC:
		return fbnic_tx_map_len(frag_len, lens, max);
	case NIOV_DEV_BNXT:
		return bnxt_tx_bd_len(frag_len, lens, max);
	default:
		return -EINVAL;
	}
}
