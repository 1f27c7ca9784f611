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

std::optional<size_t> SegLookup::entry_of_niov(uint64_t idx) const {
	const auto it = std::upper_bound(first_niov_.begin(), first_niov_.end(), u128{idx});
	if (it == first_niov_.begin())
		return std::nullopt;
	const size_t e = static_cast<size_t>(it - first_niov_.begin()) - 1;
	if (idx >= first_niov_[e] + (segs_[e].len >> shift_))
		return std::nullopt;
	return e;
}

std::optional<uint64_t> SegLookup::byte_map(uint64_t virt) const {
	const auto it = std::upper_bound(start_.begin(), start_.end(), u128{virt});
	if (it == start_.begin())
		return std::nullopt;
	const size_t e = static_cast<size_t>(it - start_.begin()) - 1;
	if (virt >= start_[e] + segs_[e].len)
		return std::nullopt;
	return segs_[e].addr + static_cast<uint64_t>(virt - start_[e]);
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
