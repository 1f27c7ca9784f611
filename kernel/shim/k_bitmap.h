/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_bitmap.h - the bitmap and find-bit helpers (runtime/bitmap.c: plain
 * loops, lib/bitmap.c and lib/find_bit.c are not needed for this little).
 */
#ifndef NIOV_K_BITMAP_H
#define NIOV_K_BITMAP_H

#define DECLARE_BITMAP(n, bits)	unsigned long n[BITS_TO_LONGS(bits)]
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] |= BIT_MASK(nr); }
static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] &= ~BIT_MASK(nr); }
#define set_bit(nr, a)		__set_bit(nr, a)
#define clear_bit(nr, a)	__clear_bit(nr, a)
static inline bool test_and_set_bit(unsigned long nr, volatile unsigned long *a)
{
	bool old = test_bit(nr, a);
	__set_bit(nr, a);
	return old;
}
static inline bool test_and_clear_bit(unsigned long nr, volatile unsigned long *a)
{
	bool old = test_bit(nr, a);
	__clear_bit(nr, a);
	return old;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long offset);
#define find_first_bit(a, size)		find_next_bit(a, size, 0)
#define find_first_zero_bit(a, size)	find_next_zero_bit(a, size, 0)
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = find_first_bit(addr, size); (bit) < (size); (bit) = find_next_bit(addr, size, (bit) + 1))
unsigned long bitmap_find_next_zero_area_off(unsigned long *map, unsigned long size,
					     unsigned long start, unsigned int nr,
					     unsigned long align_mask, unsigned long align_offset);
#define bitmap_find_next_zero_area(map, size, start, nr, mask) \
	bitmap_find_next_zero_area_off(map, size, start, nr, mask, 0)
void bitmap_set(unsigned long *map, unsigned int start, unsigned int nbits);
void bitmap_clear(unsigned long *map, unsigned int start, unsigned int nbits);
unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp);
void bitmap_free(const unsigned long *p);
#define bitmap_weight(m, n)	niov_k_bitmap_weight(m, n)
unsigned int niov_k_bitmap_weight(const unsigned long *map, unsigned int nbits);
static inline bool bitmap_empty(const unsigned long *m, unsigned int n) { return find_first_bit(m, n) >= n; }

#endif /* NIOV_K_BITMAP_H */
