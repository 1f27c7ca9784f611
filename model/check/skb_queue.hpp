// The socket model's write queue: skbs in send order, their frags in one
// store in the same order.  An skb costs 16 bytes and each frag 40, freeing
// from the head (ack, free) is O(frags freed), and the storage is reused as
// the queue moves.  The TCP operations reshape only the head, the second
// and the last skb, so the queue offers exactly those (front_room_vector.hpp
// keeps each of them cheap).
#pragma once

#include <cstdint>
#include <span>

#include "front_room_vector.hpp"
#include "report.hpp"

namespace niov {

struct QueuedFrag {
	Frag frag{};
	uint64_t virt = 0;	     // dmabuf offset of the frag's first byte
	CutBy cut_by = CutBy::none;  // explain mode: what ended the frag
};

struct Skb {
	uint32_t nr_frags = 0;
	uint32_t len = 0;
	uint32_t truesize = 0;
	bool closed = false;  // pushed: later sends start a new skb
};

class SkbQueue {
public:
	using FragIt = FrontRoomVector<QueuedFrag>::const_iterator;

	size_t size() const { return skbs_.size(); }
	bool empty() const { return skbs_.empty(); }
	Skb &operator[](size_t i) { return skbs_[i]; }
	const Skb &operator[](size_t i) const { return skbs_[i]; }
	Skb &front() { return skbs_[0]; }
	Skb &back() { return skbs_[skbs_.size() - 1]; }

	// The first frag of skb @i: O(i) from the head or O(size() - i) from
	// the tail, whichever is shorter.
	FragIt frags_of(size_t i) const;

	// Each edit invalidates references to skbs and frag iterators.
	void push_back(const Skb &s);  // takes s.nr_frags == 0
	void pop_front();
	void pop_back();
	void clear();
	// A new skb (with @frags) right after the head one, and the second
	// skb's removal.
	void insert_second(Skb s, std::span<const QueuedFrag> frags);
	void erase_second();
	// Replace the frags of skb @i (the head, the second or the last).
	void set_frags(size_t i, std::span<const QueuedFrag> frags);

private:
	size_t first_frag(size_t i) const;

	FrontRoomVector<Skb> skbs_;
	FrontRoomVector<QueuedFrag> frags_;
};

}  // namespace niov
