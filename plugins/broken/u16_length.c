// SPDX-License-Identifier: GPL-2.0
/*
 * u16_length.c - the length clamp goes through a 16-bit type, as when a
 * frag size is carried in a u16 descriptor-sized variable: a frag of
 * exactly 64 KiB becomes empty and the fill spins on empty frags.
 */
#define NIOV_PLUGIN_NAME	"u16_length"
#define NIOV_PLUGIN_DESC	"frag size clamped through a u16: 64 KiB frags truncate to 0"
#define NIOV_PLUGIN_MUST_CATCH	"frag.progress"

#define DEVMEM_TX_LENGTH_CLAMP(size, length)	min_t(u16, size, length)

#include "../kernel/tx_autosize.c"
