#include "rx_allocator.hpp"

#include <algorithm>

#include "errno.hpp"

namespace niov {

void RxAllocator::reset(const Policies &pol, std::span<const rules::Seg<Concrete>> segs, unsigned shift,
			uint64_t num_niovs) {
	genpool_ = pol.bind != BindStyle::freelist;
	shift_ = shift;
	num_niovs_ = num_niovs;
	segs_.assign(segs.begin(), segs.end());
	built_ = false;
	chunks_.clear();
	taken_.clear();
	freelist_.clear();
}

// The chunks hold the niovs bind created: never past num_niovs.
void RxAllocator::build() {
	built_ = true;
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
	taken_.assign(std::min(first, num_niovs_), 0);
	if (!genpool_)
		for (const auto &c : chunks_)
			for (uint64_t j = 0; j < c.count; ++j)
				freelist_.push_back(c.first + j);
}

RxNiov RxAllocator::niov_at(const Chunk &c, uint64_t j) const {
	return {c.first + j, c.virt + (j << shift_), c.addr + (j << shift_)};
}

const RxAllocator::Chunk *RxAllocator::chunk_of(uint64_t idx) const {
	for (const auto &c : chunks_)
		if (idx >= c.first && idx - c.first < c.count)
			return &c;
	return nullptr;
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
	// gen_pool_add_owner puts each chunk at the head of the list.
	for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
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
	for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
		const uint64_t end = c->addr + c->len - 1;
		if (dma < c->addr || dma > end)
			continue;
		if (last > end)
			return false;
		const uint64_t j = (dma - c->addr) >> shift_;
		if (j >= c->count || !taken_[c->first + j])
			return false;
		taken_[c->first + j] = 0;
		c->next = std::min(c->next, j);
		return true;
	}
	return false;
}

}  // namespace niov
