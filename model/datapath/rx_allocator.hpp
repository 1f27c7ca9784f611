// The RX allocator of a devmem binding as the page_pool memory provider runs
// it (RULES.md "RX allocator"): the answers the model gives to rx_alloc and
// rx_free.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "buffer_stash.hpp"
#include "rules.hpp"
#include "word.hpp"

namespace niov {

// One niov the RX allocator handed out: its table index, its dmabuf offset
// (net_iov_virtual_addr) and its DMA address.
struct RxNiov {
	uint64_t idx = 0, virt = 0, dma = 0;
	auto operator<=>(const RxNiov &) const = default;
};

struct RxAllocResult {
	int err = 0;  // 0 or -ENOMEM
	RxNiov niov;
};

// gen_pool binds: one chunk per sg entry, the last entry searched first,
// first fit inside a chunk, and an allocation at DMA address 0 reads as a
// failure although it took the niov.  A free goes by DMA address to the
// first chunk whose range [addr, addr + len - 1] (computed modulo 2^64, as
// gen_pool's end_addr is) holds it: a niov no chunk holds whole stays taken
// (the kernel WARNs and leaks it), and where sg entries overlap in DMA space
// the free may clear another chunk's niov, or one already free (BUG).
// The freelist bind: a stack of the niov indices the bind reached, last
// pushed first out.
class RxAllocator {
public:
	// Cheap: the tables are built at the first alloc().
	void reset(const Policies &pol, std::span<const rules::Seg<Concrete>> segs, unsigned shift,
		   uint64_t num_niovs);
	RxAllocResult alloc();
	// False when the free does not return a niov to the pool: @idx not
	// handed out, or (gen_pool) no chunk holds its address whole (WARN), or
	// the chunk that does has that niov free already (BUG).
	bool free(uint64_t idx);

private:
	struct Chunk {
		uint64_t first = 0, count = 0;	// table indices [first, first + count)
		uint64_t addr = 0, virt = 0;	// DMA address and dmabuf offset of its first niov
		uint64_t len = 0;		// the sg entry's bytes: gen_pool's chunk size
		uint64_t next = 0;		// no free niov below this one
	};
	// A chunk's range [addr, end] as gen_pool_has_addr() sees it.
	struct Holder {
		uint64_t addr = 0, end = 0;
		size_t chunk = 0;
	};
	void build();
	RxNiov niov_at(const Chunk &c, uint64_t j) const;
	const Chunk *chunk_of(uint64_t idx) const;
	Chunk *holder_of(uint64_t dma);
	bool genpool_free(uint64_t idx);

	bool genpool_ = true;
	unsigned shift_ = 0;
	uint64_t num_niovs_ = 0;
	StashedVector<rules::Seg<Concrete>> segs_;
	bool built_ = false;
	StashedVector<Chunk> chunks_;
	// Every alloc and free is O(log chunks) amortized, not O(chunks): the
	// sweep makes num_niovs of each.  Chunks above top_ are full; holders_
	// are the ranges that hold an address, by address, when no two overlap
	// (holders_disjoint_), else the free walks the list as gen_pool does.
	size_t top_ = 0;
	StashedVector<Holder> holders_;
	bool holders_disjoint_ = true;
	StashedVector<uint8_t> taken_;	     // per table index
	StashedVector<uint64_t> freelist_;  // freelist bind
};

}  // namespace niov
