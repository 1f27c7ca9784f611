#include "seg_index.hpp"

#include <algorithm>

namespace niov {

namespace {

using W = Concrete;

// Running sums of @part(segment); false when one wraps.
template <class Part>
bool prefix(const std::vector<CSeg> &segs, std::vector<uint64_t> &out, Part part) {
	out.clear();
	out.reserve(segs.size());
	uint64_t at = 0;
	for (const auto &s : segs) {
		out.push_back(at);
		const uint64_t n = part(s);
		if (n > UINT64_MAX - at)
			return false;
		at += n;
	}
	return true;
}

// The segment a sorted prefix puts @x in: the last one starting at or
// before it (zero-length segments share their successor's start, so the
// last of equal starts is the only one that can hold bytes).
size_t last_at_or_before(const std::vector<uint64_t> &starts, uint64_t x) {
	return static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), x) - starts.begin());
}

}  // namespace

SegIndex::SegIndex(std::vector<CSeg> segs, unsigned niov_shift) : segs_(std::move(segs)), shift_(niov_shift) {
	starts_sorted_ = prefix(segs_, starts_, [](const CSeg &s) { return s.len; });
	if (shift_ < 64)
		firsts_sorted_ = prefix(segs_, firsts_, [this](const CSeg &s) { return W::lshr(s.len, uint64_t{shift_}); });
}

// Sorted starts only: the segment holding byte @virt, or segs_.size()
// when none does (virt past the end).
size_t SegIndex::holder(uint64_t virt) const {
	const size_t j = last_at_or_before(starts_, virt);
	if (j == 0 || virt - starts_[j - 1] >= segs_[j - 1].len)
		return segs_.size();
	return j - 1;
}

rules::Addr<Concrete> SegIndex::byte_map(uint64_t virt) const {
	if (!starts_sorted_)
		return rules::byte_map<W>(segs_, virt);
	const size_t i = holder(virt);
	if (i == segs_.size())
		return {false, 0};
	return {true, segs_[i].addr + (virt - starts_[i])};
}

bool SegIndex::linear(uint64_t virt, uint64_t len, uint64_t dma) const {
	if (len == 0)
		return true;
	if (!starts_sorted_)
		return linear_from(0, 0, virt, len, dma);
	const size_t j = last_at_or_before(starts_, virt);
	return j != 0 && linear_from(j - 1, starts_[j - 1], virt, len, dma);
}

SegIndex::Run SegIndex::byte_map_run(uint64_t virt, uint64_t len) const {
	if (!starts_sorted_) {
		const auto a = byte_map(virt);
		return {a.ok, a.dma, a.ok && linear(virt, len, a.dma)};
	}
	const size_t i = holder(virt);
	if (i == segs_.size())
		return {false, 0, false};
	const uint64_t dma = segs_[i].addr + (virt - starts_[i]);
	return {true, dma, linear_from(i, starts_[i], virt, len, dma)};
}

// From segment @i on, each piece must continue the DMA range where the
// previous one ended.
bool SegIndex::linear_from(size_t i, uint64_t start, uint64_t virt, uint64_t len, uint64_t dma) const {
	uint64_t done = 0;
	for (; i < segs_.size() && done < len; ++i) {
		const auto &s = segs_[i];
		const uint64_t at = virt + done;
		if (at >= start && at - start < s.len) {
			const uint64_t piece = std::min(s.len - (at - start), len - done);
			if (s.addr + (at - start) != dma + done)
				return false;
			done += piece;
		}
		start += s.len;
	}
	return done == len;
}

rules::Addr<Concrete> SegIndex::niov_dma(uint64_t num_niovs, uint64_t idx) const {
	if (shift_ >= 64 || !firsts_sorted_)
		return rules::niov_dma<W>(segs_, shift_, num_niovs, idx);
	if (idx >= num_niovs)
		return {false, 0};
	const size_t j = last_at_or_before(firsts_, idx);
	if (j == 0)
		return {false, 0};
	const auto &s = segs_[j - 1];
	const uint64_t k = idx - firsts_[j - 1];
	if (k >= W::lshr(s.len, uint64_t{shift_}))
		return {false, 0};
	return {true, s.addr + W::shl(k, uint64_t{shift_})};
}

}  // namespace niov
