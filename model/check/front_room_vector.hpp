// A vector that keeps room in front of its elements, for the socket model's
// write queue: the TCP operations reshape the first two skbs and the last
// one, acks drop skbs from the front and sends append at the back.  An edit
// nearer the front shifts only the elements before it, into or out of that
// room; one nearer the back shifts those after it.  Storage grows and is
// reused, never given back per element: std::deque allocated and freed a
// node every dozen frags as the queue moved (70 allocations per send input
// of the fuzz target, the most of any one source).  Its storage comes
// from, and goes back to, the thread's BufferStash.
//
// References and iterators stay valid until the next edit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "buffer_stash.hpp"

namespace niov {

template <class T>
class FrontRoomVector {
public:
	using const_iterator = typename std::vector<T>::const_iterator;

	FrontRoomVector() : buf_(BufferStash<T>::take()) {}
	FrontRoomVector(const FrontRoomVector &) = default;
	FrontRoomVector(FrontRoomVector &&) noexcept = default;
	FrontRoomVector &operator=(const FrontRoomVector &) = default;
	FrontRoomVector &operator=(FrontRoomVector &&) noexcept = default;
	~FrontRoomVector() { BufferStash<T>::give(std::move(buf_)); }

	size_t size() const { return buf_.size() - head_; }
	bool empty() const { return size() == 0; }
	T &operator[](size_t i) { return buf_[head_ + i]; }
	const T &operator[](size_t i) const { return buf_[head_ + i]; }
	const_iterator begin() const { return buf_.cbegin() + static_cast<std::ptrdiff_t>(head_); }
	const_iterator end() const { return buf_.cend(); }

	void clear() {
		buf_.clear();
		head_ = 0;
	}

	// The @old elements from @pos on become @with (which must not point
	// into this vector).
	void replace(size_t pos, size_t old, std::span<const T> with) {
		const size_t n = with.size();
		const bool front_side = pos < size() - pos - old;  // fewer elements before than after
		if (n < old) {
			const size_t d = old - n;
			if (front_side) {
				std::move_backward(at(0), at(pos), at(pos + d));
				head_ += d;
			} else {
				buf_.erase(at(pos + n), at(pos + old));
			}
		} else if (n > old) {
			const size_t d = n - old;
			if (front_side) {
				if (head_ < d)
					make_room(d);
				std::move(at(0), at(pos), at(0) - static_cast<std::ptrdiff_t>(d));
				head_ -= d;
			} else {
				// Over the old ones, then the rest inserted as they are:
				// default elements copied over were a pass too many.
				std::copy(with.begin(), with.begin() + static_cast<std::ptrdiff_t>(old), at(pos));
				buf_.insert(at(pos + old), with.begin() + static_cast<std::ptrdiff_t>(old), with.end());
				return;
			}
		}
		std::copy(with.begin(), with.end(), at(pos));
		if (empty())
			clear();
		else if (head_ > 2 * size() + kRoom)
			shrink_room();
	}

	void push_back(const T &v) { buf_.push_back(v); }

private:
	static constexpr size_t kRoom = 64;

	typename std::vector<T>::iterator at(size_t i) { return buf_.begin() + static_cast<std::ptrdiff_t>(head_ + i); }

	// Room for @d more in front, and half the elements' worth besides, so
	// the shift of every element this costs is paid for by that many edits.
	void make_room(size_t d) {
		const size_t add = d + size() / 2 + kRoom - head_;
		buf_.insert(buf_.begin(), add, T{});
		head_ += add;
	}

	// Acks leave room behind them: past twice the elements, all but kRoom
	// of it goes (a shift of every element, after as many acks).
	void shrink_room() {
		buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(head_ - kRoom));
		head_ = kRoom;
	}

	std::vector<T> buf_;
	size_t head_ = 0;  // elements start here
};

}  // namespace niov
