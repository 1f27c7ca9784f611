// The kernel's iovec iterator, as far as the devmem TX path uses it.
#include "impl.hpp"

namespace niov {

IovIter iov_iter_init(const std::vector<IovElem> &iov, uint64_t count) {
	IovIter it{};
	it.iov = reinterpret_cast<const niov_iov *>(iov.data());
	it.nr_segs = iov.size();
	it.iov_offset = 0;
	it.count = count;
	return it;
}

// Clamp to what is left, then step over every element the new offset reaches
// or passes: a run of empty elements is skipped in one go, as in the kernel.
void iov_iter_advance(IovIter &it, uint64_t n) {
	if (it.count == 0)
		return;
	if (n > it.count)
		n = it.count;
	it.count -= n;
	uint64_t pos = n + it.iov_offset;
	while (it.nr_segs > 0 && pos >= it.iov->len) {
		pos -= it.iov->len;
		++it.iov;
		--it.nr_segs;
	}
	it.iov_offset = pos;
}

// Walk back n bytes; a revert of 0 leaves skipped empty elements skipped.
void iov_iter_revert(IovIter &it, uint64_t n, const IovElem *first) {
	if (n == 0)
		return;
	it.count += n;
	if (n <= it.iov_offset) {
		it.iov_offset -= n;
		return;
	}
	n -= it.iov_offset;
	const auto *begin = reinterpret_cast<const niov_iov *>(first);
	while (it.iov > begin) {
		--it.iov;
		++it.nr_segs;
		if (n <= it.iov->len) {
			it.iov_offset = it.iov->len - n;
			return;
		}
		n -= it.iov->len;
	}
	it.iov_offset = 0;
}

}  // namespace niov
