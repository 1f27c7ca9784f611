// DMA sg tables as exporters hand them to the bind: the honest ones seen on
// real systems, and ones from exporters that lie.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "scenario.hpp"

namespace niov::props {

enum class Exporter : uint8_t {
	udmabuf,    // 4 KiB memfd pages (PAGE_SIZE segments), sometimes IOMMU-merged
	hugetlb,    // 2 MiB folios, one segment per folio (seed 003)
	mixed,      // folios of mixed sizes, each naturally aligned
	gpu,        // 64 KiB or 2 MiB granules, contiguous runs
	coalesced,  // one big IOMMU-coalesced segment
	count_
};

enum class Lie : uint8_t {
	none,
	unaligned_addr,
	unaligned_len,
	zero_len,	 // an empty segment somewhere
	addr_zero,
	addr_near_2_64,
	addr_near_2_32,
	len_near_2_32,
	len_near_2_64,	 // the total wraps
	many_segments,	 // up to the parser's 4096
	size_short,	 // dmabuf size below the segment total
	size_long,	 // above it
	count_
};

struct SgTable {
	std::vector<DmaSeg> segs;
	uint64_t dmabuf_size = 0;
	bool size_set = false;	// dmabuf_size differs from the (saturating) sum
	Exporter exporter = Exporter::udmabuf;
	Lie lie = Lie::none;
	std::string tag() const;  // "hugetlb", "udmabuf+unaligned_addr", ...
};

std::string_view name(Exporter e);
std::string_view name(Lie l);

// The sum of the segment lengths, saturating at U64_MAX like the parser.
uint64_t saturating_total(const std::vector<DmaSeg> &segs);

rc::Gen<SgTable> gen_honest_table(unsigned page_shift);
// An honest table with one lie applied (@lies: which ones may be picked).
rc::Gen<SgTable> gen_lying_table(unsigned page_shift, std::vector<Lie> lies);
// Honest 3 times in 4, lying otherwise.
rc::Gen<SgTable> gen_table(unsigned page_shift);

// Lies that leave the sg table free of overlaps and wraps, so the byte map
// is one-to-one (payload checks need to read the DMA bytes back).
const std::vector<Lie> &one_to_one_lies();
const std::vector<Lie> &all_lies();

// Puts the table into a scenario (dmabuf_size, dmabuf_size_set, segs, name).
void put_table(Scenario &sc, const SgTable &t);

}  // namespace niov::props
