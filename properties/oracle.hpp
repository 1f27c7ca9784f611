// Independent oracles: the rules of model/RULES.md written a second time,
// in plain arithmetic (modulo, 128-bit sums, top-down searches) rather than
// the word-generic masks of model/rules/rules.hpp, so that a property comparing
// an implementation against them is not the model checking itself.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "config.hpp"
#include "scenario.hpp"

namespace niov::props::oracle {

// RULES.md bind step 2 for tx_niov = auto / auto-noaddr: the largest power
// of two from the cap (2 MiB, policy tx_niov_max) down to PAGE_SIZE dividing
// the dmabuf size and every segment length (and address), searched top-down
// with %.
uint64_t tx_niov_size(TxNiov mode, unsigned page_shift, uint64_t dmabuf_size,
		      const std::vector<DmaSeg> &segs, unsigned max_shift);
bool divides_all(TxNiov mode, uint64_t n, uint64_t dmabuf_size, const std::vector<DmaSeg> &segs);

struct Bind {
	int err = 0;
	unsigned shift = 0;
	uint64_t num_niovs = 0;
};
// RULES.md bind steps 1-6 (tx, rx) or the zcrx validation (zcrx).
Bind bind(const Scenario &sc);

struct Queue {
	int err = 0;
	unsigned order = 0;
};
// RULES.md step 7: opening an RX (or zcrx) queue on a binding of 1 << shift.
Queue rx_queue(const Scenario &sc, unsigned shift);

// The lowest set bit over the segment lengths (io_area_max_shift).
unsigned area_max_shift(const std::vector<DmaSeg> &segs);

// The declarative byte map, dmabuf offset -> DMA address (nullopt: past
// the segments).  Offsets are summed in 128 bits: nothing wraps.
std::optional<uint64_t> byte_map(const std::vector<DmaSeg> &segs, uint64_t virt);

// The DMA address of niov @idx in a table of 1 << shift niovs.
std::optional<uint64_t> niov_dma(const std::vector<DmaSeg> &segs, unsigned shift,
				 uint64_t num_niovs, uint64_t idx);

// What the device reads at a DMA address after the CPU wrote every dmabuf
// offset in ascending order: the largest offset mapped there (the last
// write wins), or nullopt when nothing maps there, and how many bytes from
// @dma on come from consecutive offsets.  An address several offsets map
// to is marked aliased: an exporter mapping two dmabuf pages at one DMA
// address lied, and what the device reads there proves nothing.
class Memory {
public:
	explicit Memory(const std::vector<DmaSeg> &segs);
	bool usable() const { return usable_; }	 // false: too many overlaps to resolve
	struct Read {
		uint64_t offset = 0;
		uint64_t run = 0;
		bool aliased = false;  // several dmabuf offsets share this address
	};
	std::optional<Read> at(uint64_t dma) const;

private:
	struct Span {
		unsigned __int128 addr, end;
		unsigned __int128 start;  // dmabuf offset of addr
	};
	std::vector<Span> spans_;  // sorted by addr
	bool overlaps_ = false;
	bool usable_ = true;
};

// import_iovec + iov_iter_truncate as tcp_sendmsg sees a send.
struct Iov {
	int err = 0;
	std::vector<IovElem> elems;  // capped lengths
	uint64_t total = 0;	     // bytes the iterator holds
	size_t leading_empty = 0;    // empty elements before the first byte
};
Iov effective_iov(const Op &send, const Config &cfg);

// The dmabuf offset of stream byte @pos (pos < total), and how many bytes
// from there on stay in the same element.
struct StreamAt {
	uint64_t virt = 0;
	uint64_t elem_left = 0;
};
StreamAt stream_at(const Iov &iov, uint64_t pos);

// The device's descriptor lengths for one frag (RULES.md device table);
// nullopt when the driver drops the packet.
std::optional<std::vector<uint32_t>> tx_descs(Device dev, uint32_t frag_len);

// The per-frag limit the policies apply (U64_MAX: none).
uint64_t tx_max_frag(const Config &cfg);
// get_niov_at's granularity.
unsigned lookup_shift(const Config &cfg, unsigned niov_shift);

}  // namespace niov::props::oracle

namespace niov::props::oracle {

// RULES.md "RX allocator": the dmabuf offset of niov @idx - the freelist
// bind's idx << shift, a gen_pool chunk's offset (the sum of the sg lengths
// before it) plus its place in the chunk - summed in 128 bits.
std::optional<uint64_t> niov_virt(const Scenario &sc, unsigned shift, uint64_t num_niovs, uint64_t idx);

// How many niovs the allocator hands out of @num_niovs: all the bind created
// (none past the sg table), less one per gen_pool chunk at DMA address 0
// (gen_pool's 0 means "none").
uint64_t rx_alloc_handed(const Scenario &sc, unsigned shift, uint64_t num_niovs);

}  // namespace niov::props::oracle
