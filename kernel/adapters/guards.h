/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guards.h - inputs the code is not given: past the suite's memory cap,
 * or sg tables no DMA mapping makes on which it would corrupt memory; each
 * answered NIOV_E_NOT_REPRESENTABLE with the reason in the extack.
 */
#ifndef NIOV_K_GUARDS_H
#define NIOV_K_GUARDS_H

/*
 * The suite's memory cap on a bind (model/config.hpp kMaxNiovTable, step 5
 * of model/RULES.md): the model answers -ENOMEM past 2^24 niovs, as a
 * stand-in for a failing kvmalloc.  The real code only fails above INT_MAX
 * bytes an allocation (and gen_pool eras allocate per sg entry), so between
 * the two it would bind what the model refuses - a difference that is the
 * suite's limit, not the kernel's - and eat gigabytes doing it.  Such binds
 * are not run: NIOV_E_NOT_REPRESENTABLE, with an extack saying why.  The
 * count is taken over the dmabuf size and over the sg entries, whichever is
 * larger (a table the code would size from either).
 */
#define NIOV_K_MAX_NIOV_TABLE	(1ULL << 24)

static inline bool niov_k_over_cap(const struct niov_bind_args *args, u64 size, unsigned int shift)
{
	static char msg[192];
	u64 seg_bytes = 0, niovs;
	u32 i;

	for (i = 0; i < args->nr_segs; i++)
		seg_bytes = seg_bytes + args->segs[i].len < seg_bytes ? U64_MAX : seg_bytes + args->segs[i].len;
	niovs = max_t(u64, size, seg_bytes) >> shift;
	if (niovs <= NIOV_K_MAX_NIOV_TABLE)
		return false;
	niov_k_snprintf(msg, sizeof(msg),
			"not run: %llu niovs is past the suite's memory cap of 2^24 "
			"(the model's kvmalloc stand-in, RULES.md step 5), not a kernel limit",
			(unsigned long long)niovs);
	niov_k_extack_say(args, msg);
	return true;
}

/*
 * The niov shift a bind that sizes TX niovs itself is likely to pick, for
 * the memory cap only: the largest power of two up to 2 MiB aligning the
 * dmabuf and every sg entry, at least a page.  A guess (the code decides,
 * and is judged on what it decides); a code whose sizing is off binds more
 * niovs than guessed, which its allocations then refuse.
 */
static inline unsigned int niov_k_auto_shift_guess(const struct niov_bind_args *args)
{
	u64 bits = args->dmabuf_size | SZ_2M;
	u32 i;

	for (i = 0; i < args->nr_segs; i++)
		bits |= args->segs[i].addr | args->segs[i].len;
	return max_t(unsigned int, (unsigned int)__builtin_ctzll(bits), (unsigned int)PAGE_SHIFT);
}

/*
 * An empty sg entry at DMA address 0, which no DMA mapping hands out: gen_pool
 * makes it a chunk whose end_addr wraps to U64_MAX, so it claims every
 * address and gen_pool_free() clears bits past its empty bitmap - memory
 * corruption the runtime cannot contain, and a report on the fake exporter
 * rather than on the kernel.  Such binds are not run.  (Entries that wrap
 * past 2^64 or overlap are run: the model predicts what gen_pool does.)
 */
static inline bool niov_k_unmappable(const struct niov_bind_args *args)
{
	static char msg[128];
	u32 i;

	for (i = 0; i < args->nr_segs; i++) {
		if (args->segs[i].len || args->segs[i].addr)
			continue;
		niov_k_snprintf(msg, sizeof(msg),
				"not run: sg entry %u is empty at DMA address 0; no DMA mapping makes it", i);
		niov_k_extack_say(args, msg);
		return true;
	}
	return false;
}

/*
 * Binds that size a table from the dmabuf and fill it from the sg entries
 * trust the exporter to make the two agree.  gen_pool TX (era b) sizes
 * tx_vec so; the freelist bind (era c) sizes its whole area so, in both
 * directions.  Entries holding more niovs write past the table; fewer leave
 * tx_vec entries that a lookup reads uninitialised (the freelist area is
 * zeroed, so on RX fewer is only niovs never handed out).  Both corrupt
 * memory on a lying exporter (bind.sg_covers_dmabuf, a known finding), so
 * they are not run.  What the freelist bind refuses before it touches the
 * area (a dmabuf size that is not whole niovs; for fewer, an entry that is
 * not) is still run: the code's answer there is worth comparing, and a
 * tree without those checks writes out of bounds where the runtime's
 * redzones see it.  @shift 0: the code picks the niov size itself (TX
 * auto-sizing), so the sg bytes are compared with the dmabuf's instead.
 */
enum niov_k_table {
	NIOV_K_TX_VEC_FROM_SIZE,	/* tx_vec only (gen_pool TX) */
	NIOV_K_AREA_FROM_SIZE,		/* the niov area and tx_vec (freelist) */
};

static inline bool niov_k_table_overrun(const struct niov_bind_args *args, unsigned int shift,
					enum niov_k_table table)
{
	static char msg[224];
	u64 unit = shift ? 1ULL << shift : 1, entries = 0, slots = args->dmabuf_size / unit;
	bool whole = true, more, fewer;
	const char *what;
	u32 i;

	if (table == NIOV_K_TX_VEC_FROM_SIZE && args->dir != NIOV_DIR_TX)
		return false;
	if (table == NIOV_K_AREA_FROM_SIZE && args->dmabuf_size % unit)
		return false;
	for (i = 0; i < args->nr_segs; i++) {
		u64 n = args->segs[i].len / unit;

		entries = entries + n < entries ? U64_MAX : entries + n;
		whole &= args->segs[i].len % unit == 0;
	}
	more = entries > slots;
	fewer = entries < slots && args->dir == NIOV_DIR_TX && (whole || table == NIOV_K_TX_VEC_FROM_SIZE);
	if (!more && !fewer)
		return false;
	what = table == NIOV_K_TX_VEC_FROM_SIZE ? "tx_vec" : "the niov area";
	niov_k_snprintf(msg, sizeof(msg),
			"not run: the sg entries hold %llu %s, %s %llu: the bind would %s %s "
			"(an exporter whose table does not add up)",
			(unsigned long long)entries, shift ? "niovs" : "bytes", what, (unsigned long long)slots,
			more ? "write past" : "leave unset entries of", more ? what : "tx_vec");
	niov_k_extack_say(args, msg);
	return true;
}

#endif /* NIOV_K_GUARDS_H */
