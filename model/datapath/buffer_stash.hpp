// Vector storage kept per thread from one run of the socket model to the
// next.  The fuzz targets run the model (and the plugin beside it) a
// hundred thousand times a second, each run growing its write queue from
// nothing: the regrowth was a sixth of a send input's allocations, and
// the most expensive thing ASan does per input is allocate.  Benchmarks
// that queue ten thousand skbs per iteration paid page faults for the
// same regrowth every iteration.
//
// A few buffers per element type, each under a bound, so what a thread
// keeps stays small.  Storage is reused only once its holder is gone, so a
// pointer into a live queue is never handed to another.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace niov {

template <class T>
class BufferStash {
public:
	// take() and give() branch on what earlier runs left: out of line and
	// without coverage (fuzz/coverage-ignore.txt), so a fuzz target's edges
	// follow its input, not the inputs before it.

	// An empty vector, with the capacity of one given back earlier if any.
	[[gnu::noinline]] static std::vector<T> take() {
		auto &kept = stash();
		if (kept.empty())
			return {};
		std::vector<T> v = std::move(kept.back());
		kept.pop_back();
		return v;
	}

	[[gnu::noinline]] static void give(std::vector<T> &&v) {
		auto &kept = stash();
		if (v.capacity() == 0 || v.capacity() > kMaxBytes / sizeof(T) || kept.size() >= kKept)
			return;
		v.clear();
		kept.push_back(std::move(v));
	}

private:
	// Buffers of one type alive at once in a run: the write queue, the
	// socket's scratch, two segment indexes' prefix sums; tests hold several.
	static constexpr size_t kKept = 8;
	static constexpr size_t kMaxBytes = size_t{4} << 20;  // 10,000 skbs' frags fit

	static std::vector<std::vector<T>> &stash() {
		static thread_local std::vector<std::vector<T>> kept = [] {
			std::vector<std::vector<T>> v;
			v.reserve(kKept);
			return v;
		}();
		return kept;
	}
};

// Empties a vector whose storage may be kept from an earlier run (a
// stashed one, a fuzz decoder's, a plugin loader's) and makes room for @n:
// what clear() destroys and whether reserve() grows follow that run, so
// this stays out of line and without coverage, like take() and give().
template <class V>
[[gnu::noinline]] void reuse_kept(V &v, size_t n) {
	v.clear();
	v.reserve(n);
}

// A std::vector whose storage comes from the thread's stash and goes back
// to it with its holder: for the scratch and index vectors every run of the
// model builds afresh.  It is a std::vector, so it goes wherever one is
// taken by reference; copies allocate their own storage, and a moved-from
// one has none to give back.  Moved into a plain std::vector its storage
// goes to the allocator, not back to the stash: hold one as `auto`.
template <class T>
class StashedVector : public std::vector<T> {
public:
	StashedVector() : std::vector<T>(BufferStash<T>::take()) {}
	StashedVector(std::vector<T> &&v) : std::vector<T>(std::move(v)) {}  // NOLINT: a vector's storage, adopted
	StashedVector(const StashedVector &) = default;
	StashedVector(StashedVector &&) noexcept = default;
	StashedVector &operator=(const StashedVector &) = default;
	// The storage replaced goes back to the stash, not to the allocator.
	StashedVector &operator=(StashedVector &&o) noexcept {
		if (this != &o) {
			BufferStash<T>::give(std::move(*this));
			std::vector<T>::operator=(std::move(o));
		}
		return *this;
	}
	~StashedVector() { BufferStash<T>::give(std::move(*this)); }
};

}  // namespace niov
