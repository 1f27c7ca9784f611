#include "rx_allocator.hpp"

#include <algorithm>

#include "errno.hpp"

namespace niov {

void RxAllocator::reset(const Policies &pol, std::span<const rules::Seg<Concrete>> segs, unsigned shift,
			uint64_t num_niovs) {
	genpool_ = pol.bind != BindStyle::freelist;
	shift_ = shift;
	num_niovs_ = num_niovs;
	// Stashed storage, kept from earlier runs: reuse_kept empties it and
	// makes room, out of line, so no edge here or in build() follows those
	// runs (a fuzz target's coverage).
	reuse_kept(segs_, segs.size());
	segs_.assign(segs.begin(), segs.end());
	built_ = false;
	chunks_.clear();
	taken_.clear();
	freelist_.clear();
	holders_.clear();
	holders_disjoint_ = true;
	top_ = 0;
}

// The chunks hold the niovs bind created: never past num_niovs.
void RxAllocator::build() {
	built_ = true;
	reuse_kept(chunks_, segs_.size());
	uint64_t first = 0, virt = 0;
	for (const auto &s : segs_) {
		Chunk c;
		c.first = first;
		c.count = first < num_niovs_ ? std::min(s.len >> shift_, num_niovs_ - first) : 0;
		c.addr = s.addr;
		c.len = s.len;
		c.virt = genpool_ ? virt : first << shift_;
		chunks_.push_back(c);
		first += s.len >> shift_;
		virt += s.len;
	}
	const uint64_t niovs = std::min(first, num_niovs_);
	reuse_kept(taken_, niovs);
	taken_.assign(niovs, 0);
	top_ = chunks_.size();
	if (!genpool_) {
		reuse_kept(freelist_, niovs);
		for (const auto &c : chunks_)
			for (uint64_t j = 0; j < c.count; ++j)
				freelist_.push_back(c.first + j);
		return;
	}
	// end_addr is computed modulo 2^64: a range that wraps holds nothing,
	// an empty one at address 0 holds every address.
	reuse_kept(holders_, chunks_.size());
	for (size_t i = 0; i < chunks_.size(); ++i) {
		const uint64_t end = chunks_[i].addr + chunks_[i].len - 1;
		if (end >= chunks_[i].addr)
			holders_.push_back({chunks_[i].addr, end, i});
	}
	std::sort(holders_.begin(), holders_.end(), [](const Holder &a, const Holder &b) { return a.addr < b.addr; });
	for (size_t i = 1; i < holders_.size(); ++i)
		holders_disjoint_ &= holders_[i].addr > holders_[i - 1].end;
}

RxNiov RxAllocator::niov_at(const Chunk &c, uint64_t j) const {
	return {c.first + j, c.virt + (j << shift_), c.addr + (j << shift_)};
}

// The table ranges [first, first + count) are disjoint and in order, so
// only the last chunk starting at or below @idx can hold it.
const RxAllocator::Chunk *RxAllocator::chunk_of(uint64_t idx) const {
	auto c = std::upper_bound(chunks_.begin(), chunks_.end(), idx,
				  [](uint64_t i, const Chunk &ch) { return i < ch.first; });
	if (c == chunks_.begin())
		return nullptr;
	--c;
	return idx - c->first < c->count ? &*c : nullptr;
}

// gen_pool's list order: the chunk added last comes first.
RxAllocator::Chunk *RxAllocator::holder_of(uint64_t dma) {
	if (!holders_disjoint_) {
		for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c)
			if (dma >= c->addr && dma <= c->addr + c->len - 1)
				return &*c;
		return nullptr;
	}
	auto h = std::upper_bound(holders_.begin(), holders_.end(), dma,
				  [](uint64_t a, const Holder &x) { return a < x.addr; });
	if (h == holders_.begin() || dma > (--h)->end)
		return nullptr;
	return &chunks_[h->chunk];
}

RxAllocResult RxAllocator::alloc() {
	if (!built_)
		build();
	if (!genpool_) {
		if (freelist_.empty())
			return {-kENOMEM, {}};
		const uint64_t idx = freelist_.back();
		freelist_.pop_back();
		taken_[idx] = 1;
		return {0, niov_at(*chunk_of(idx), idx - chunk_of(idx)->first)};
	}
	// gen_pool_add_owner puts each chunk at the head of the list; the
	// chunks from top_ on are full.
	for (; top_ > 0; --top_) {
		Chunk *c = &chunks_[top_ - 1];
		uint64_t j = c->next;
		while (j < c->count && taken_[c->first + j])
			++j;
		c->next = j + 1;
		if (j >= c->count)
			continue;
		taken_[c->first + j] = 1;
		const RxNiov n = niov_at(*c, j);
		// gen_pool returns the address, and 0 means "none": the niov at
		// DMA address 0 is taken but never handed out.
		if (n.dma == 0)
			return {-kENOMEM, {}};
		return {0, n};
	}
	return {-kENOMEM, {}};
}

bool RxAllocator::free(uint64_t idx) {
	if (!built_ || idx >= taken_.size() || !taken_[idx])
		return false;
	if (genpool_)
		return genpool_free(idx);
	taken_[idx] = 0;
	freelist_.push_back(idx);
	return true;
}

// gen_pool_has_addr() then gen_pool_free(): both take the first chunk in
// list order whose range holds the address, whichever chunk handed it out.
bool RxAllocator::genpool_free(uint64_t idx) {
	const Chunk *own = chunk_of(idx);
	if (!own)
		return false;
	const uint64_t dma = own->addr + ((idx - own->first) << shift_);
	const uint64_t last = dma + ((uint64_t{1} << shift_) - 1);
	Chunk *c = holder_of(dma);
	if (!c || last > c->addr + c->len - 1)
		return false;
	const uint64_t j = (dma - c->addr) >> shift_;
	if (j >= c->count || !taken_[c->first + j])
		return false;
	taken_[c->first + j] = 0;
	c->next = std::min(c->next, j);
	top_ = std::max(top_, static_cast<size_t>(c - chunks_.data()) + 1);
	return true;
}

}  // namespace niov
