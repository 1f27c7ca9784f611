#include "skb_queue.hpp"

#include <algorithm>

namespace niov {

size_t SkbQueue::first_frag(size_t i) const {
	size_t n = 0;
	if (i <= skbs_.size() / 2) {
		for (size_t k = 0; k < i; ++k)
			n += skbs_[k].nr_frags;
		return n;
	}
	for (size_t k = i; k < skbs_.size(); ++k)
		n += skbs_[k].nr_frags;
	return frags_.size() - n;
}

SkbQueue::FragIt SkbQueue::frags_of(size_t i) const {
	return frags_.begin() + static_cast<ptrdiff_t>(first_frag(i));
}

void SkbQueue::push_back(const Skb &s) {
	skbs_.push_back(s);
	skbs_.back().nr_frags = 0;
}

void SkbQueue::pop_front() {
	frags_.erase(frags_.begin(), frags_.begin() + skbs_.front().nr_frags);
	skbs_.pop_front();
}

void SkbQueue::pop_back() {
	frags_.erase(frags_.end() - skbs_.back().nr_frags, frags_.end());
	skbs_.pop_back();
}

void SkbQueue::clear() {
	frags_.clear();
	skbs_.clear();
}

void SkbQueue::insert_second(Skb s, std::span<const QueuedFrag> frags) {
	const auto at = frags_.begin() + skbs_.front().nr_frags;
	frags_.insert(at, frags.begin(), frags.end());
	s.nr_frags = static_cast<uint32_t>(frags.size());
	skbs_.insert(skbs_.begin() + 1, s);
}

void SkbQueue::erase_second() {
	const auto at = frags_.begin() + skbs_.front().nr_frags;
	frags_.erase(at, at + skbs_[1].nr_frags);
	skbs_.erase(skbs_.begin() + 1);
}

void SkbQueue::set_frags(size_t i, std::span<const QueuedFrag> frags) {
	const auto at = static_cast<ptrdiff_t>(first_frag(i));
	const uint32_t old = skbs_[i].nr_frags;
	if (frags.size() == old) {
		std::copy(frags.begin(), frags.end(), frags_.begin() + at);
		return;
	}
	frags_.erase(frags_.begin() + at, frags_.begin() + at + old);
	frags_.insert(frags_.begin() + at, frags.begin(), frags.end());
	skbs_[i].nr_frags = static_cast<uint32_t>(frags.size());
}

}  // namespace niov
