#include "skb_queue.hpp"

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
	Skb e = s;
	e.nr_frags = 0;
	skbs_.push_back(e);
}

void SkbQueue::pop_front() {
	frags_.replace(0, skbs_[0].nr_frags, {});
	skbs_.replace(0, 1, {});
}

void SkbQueue::pop_back() {
	const uint32_t n = back().nr_frags;
	frags_.replace(frags_.size() - n, n, {});
	skbs_.replace(skbs_.size() - 1, 1, {});
}

void SkbQueue::clear() {
	frags_.clear();
	skbs_.clear();
}

void SkbQueue::insert_second(Skb s, std::span<const QueuedFrag> frags) {
	frags_.replace(skbs_[0].nr_frags, 0, frags);
	s.nr_frags = static_cast<uint32_t>(frags.size());
	skbs_.replace(1, 0, std::span<const Skb>(&s, 1));
}

void SkbQueue::erase_second() {
	frags_.replace(skbs_[0].nr_frags, skbs_[1].nr_frags, {});
	skbs_.replace(1, 1, {});
}

void SkbQueue::set_frags(size_t i, std::span<const QueuedFrag> frags) {
	frags_.replace(first_frag(i), skbs_[i].nr_frags, frags);
	skbs_[i].nr_frags = static_cast<uint32_t>(frags.size());
}

}  // namespace niov
