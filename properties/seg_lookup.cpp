#include "seg_lookup.hpp"

#include <algorithm>

namespace niov::props::oracle {

SegLookup::SegLookup(const Scenario &sc, unsigned shift)
    : segs_(sc.segs), shift_(shift), freelist_(sc.cfg.policy.bind == BindStyle::freelist) {
	first_niov_.reserve(segs_.size());
	start_.reserve(segs_.size());
	u128 first = 0, start = 0;
	for (const auto &s : segs_) {
		first_niov_.push_back(first);
		start_.push_back(start);
		first += s.len >> shift;
		start += s.len;
	}
}

namespace {

// The last entry whose range starts at or before @x (ranges are disjoint and
// in order, so it is the only one that can hold @x).
std::optional<size_t> last_start_at_or_before(const std::vector<unsigned __int128> &starts, uint64_t x) {
	const auto it = std::upper_bound(starts.begin(), starts.end(), static_cast<unsigned __int128>(x));
	if (it == starts.begin())
		return std::nullopt;
	return static_cast<size_t>(it - starts.begin()) - 1;
}

}  // namespace

std::optional<size_t> SegLookup::entry_of_niov(uint64_t idx) const {
	const auto e = last_start_at_or_before(first_niov_, idx);
	if (!e || idx >= first_niov_[*e] + (segs_[*e].len >> shift_))
		return std::nullopt;
	return e;
}

std::optional<uint64_t> SegLookup::byte_map(uint64_t virt) const {
	const auto e = last_start_at_or_before(start_, virt);
	if (!e || virt >= start_[*e] + segs_[*e].len)
		return std::nullopt;
	return segs_[*e].addr + static_cast<uint64_t>(virt - start_[*e]);
}

std::optional<uint64_t> SegLookup::niov_dma(uint64_t num_niovs, uint64_t idx) const {
	if (idx >= num_niovs)
		return std::nullopt;
	const auto e = entry_of_niov(idx);
	if (!e)
		return std::nullopt;
	return segs_[*e].addr + (static_cast<uint64_t>(idx - first_niov_[*e]) << shift_);
}

std::optional<uint64_t> SegLookup::niov_virt(uint64_t num_niovs, uint64_t idx) const {
	if (idx >= num_niovs)
		return std::nullopt;
	if (freelist_)
		return idx << shift_;
	const auto e = entry_of_niov(idx);
	if (!e)
		return std::nullopt;
	return static_cast<uint64_t>(start_[*e] + ((idx - first_niov_[*e]) << shift_));
}

}  // namespace niov::props::oracle
