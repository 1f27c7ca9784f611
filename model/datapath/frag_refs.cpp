#include "frag_refs.hpp"

#include <algorithm>
#include <utility>

#include "mix64.hpp"

namespace niov {

namespace {

uint64_t next_epoch() {
	static thread_local uint64_t last = 0;
	return ++last;	// 64 bits: no thread wraps it
}

}  // namespace

// One counting table is alive at a time (the plugin's run; the model
// counts nothing), so a thread keeps one: the largest a run grew, up to a
// bound (a fuzz input's 4,096 frags need 8,192 slots, 192 KiB).
std::vector<FragRefs::Count> &FragRefs::kept_table() {
	static thread_local std::vector<Count> kept;
	return kept;
}

FragRefs::FragRefs(Impl &impl)
	: impl_(impl), counting_(impl.takes_frag_refs()), epoch_(next_epoch()),
	  table_(counting_ ? std::exchange(kept_table(), {}) : std::vector<Count>{}) {}

FragRefs::~FragRefs() {
	constexpr size_t kMaxKeptBytes = size_t{4} << 20;
	if (table_.size() > kept_table().size() && table_.size() * sizeof(Count) <= kMaxKeptBytes)
		kept_table() = std::move(table_);
}

// The first slot to try for @niov, or the empty slot its probe ends on.
size_t FragRefs::slot_of(uint64_t niov) const {
	const size_t mask = table_.size() - 1;
	size_t i = static_cast<size_t>((niov * kGoldenGamma) >> 32) & mask;
	while (live(table_[i]) && table_[i].niov != niov)
		i = (i + 1) & mask;
	return i;
}

FragRefs::Count *FragRefs::find(uint64_t niov) {
	if (table_.empty())
		return nullptr;
	Count &c = table_[slot_of(niov)];
	return live(c) ? &c : nullptr;
}

FragRefs::Count &FragRefs::at(uint64_t niov) {
	if (Count *c = find(niov))
		return *c;
	if (2 * (used_ + 1) > table_.size()) {
		std::vector<Count> old = std::exchange(table_, std::vector<Count>(std::max<size_t>(16, 2 * table_.size())));
		for (const Count &c : old)
			if (live(c))
				table_[slot_of(c.niov)] = c;
	}
	Count &c = table_[slot_of(niov)];
	c = Count{niov, epoch_, 0, 0};
	++used_;
	return c;
}

void FragRefs::count_taken(const Frag &f) {
	auto &c = at(f.niov);
	++c.refs;
	++c.pieces;
	++held_;
}

void FragRefs::count_cut(const Frag &f) { ++at(f.niov).pieces; }

void FragRefs::count_freed(const Frag &f) {
	Count *c = find(f.niov);
	if (!c || (c->refs == 0 && c->pieces == 0))
		return;	 // a piece the fill never made: nothing was taken for it
	if (c->pieces)
		--c->pieces;
	if (c->refs > c->pieces) {
		--c->refs;
		--held_;
		impl_.frag_release(f);
	}
}

}  // namespace niov
