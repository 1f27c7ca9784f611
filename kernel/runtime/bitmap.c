// SPDX-License-Identifier: GPL-2.0
/*
 * bitmap.c - find-bit and bitmap helpers as plain loops (genalloc's
 * searches are the only user; speed is not the point).
 */
#include "runtime.h"

static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long offset, bool want)
{
	for (; offset < size; offset++) {
		if (test_bit(offset, addr) == want)
			return offset;
	}
	return size;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, true);
}

unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset)
{
	return find_next(addr, size, offset, false);
}

/* lib/bitmap.c's contract: the first run of @nr zero bits at or after
 * @start whose index plus @align_offset is aligned by @align_mask; a value
 * past @size when there is none. */
unsigned long bitmap_find_next_zero_area_off(unsigned long *map, unsigned long size,
					     unsigned long start, unsigned int nr,
					     unsigned long align_mask, unsigned long align_offset)
{
	unsigned long index, end, i;

	for (;;) {
		index = find_next_zero_bit(map, size, start);
		index = ((index + align_offset + align_mask) & ~align_mask) - align_offset;
		end = index + nr;
		if (end > size)
			return end;
		i = find_next_bit(map, end, index);
		if (i >= end)
			return index;
		start = i + 1;
	}
}

void bitmap_set(unsigned long *map, unsigned int start, unsigned int nbits)
{
	while (nbits--)
		__set_bit(start++, map);
}

void bitmap_clear(unsigned long *map, unsigned int start, unsigned int nbits)
{
	while (nbits--)
		__clear_bit(start++, map);
}

unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	return kcalloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), gfp);
}

void bitmap_free(const unsigned long *p)
{
	kfree(p);
}

unsigned int niov_k_bitmap_weight(const unsigned long *map, unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits; i++)
		w += test_bit(i, map);
	return w;
}
