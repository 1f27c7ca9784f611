#include "frag_refs.hpp"

#include <algorithm>

#include "mix64.hpp"

namespace niov {

// The first slot to try for @niov, or the empty slot its probe ends on.
size_t FragRefs::slot_of(uint64_t niov) const {
	const size_t mask = table_.size() - 1;
	size_t i = static_cast<size_t>((niov * kGoldenGamma) >> 32) & mask;
	while (table_[i].used && table_[i].niov != niov)
		i = (i + 1) & mask;
	return i;
}

FragRefs::Count *FragRefs::find(uint64_t niov) {
	if (table_.empty())
		return nullptr;
	Count &c = table_[slot_of(niov)];
	return c.used ? &c : nullptr;
}

FragRefs::Count &FragRefs::at(uint64_t niov) {
	if (Count *c = find(niov))
		return *c;
	if (2 * (used_ + 1) > table_.size()) {
		std::vector<Count> old = std::move(table_);
		table_ = BufferStash<Count>::take();
		table_.assign(std::max<size_t>(16, 2 * old.size()), Count{});
		for (const Count &c : old)
			if (c.used)
				table_[slot_of(c.niov)] = c;
		BufferStash<Count>::give(std::move(old));
	}
	Count &c = table_[slot_of(niov)];
	c = Count{niov, 0, 0, true};
	++used_;
	return c;
}

void FragRefs::taken(const Frag &f) {
	if (!counting_)
		return;
	auto &c = at(f.niov);
	++c.refs;
	++c.pieces;
	++held_;
}

void FragRefs::cut(const Frag &f) {
	if (counting_)
		++at(f.niov).pieces;
}

void FragRefs::freed(const Frag &f) {
	if (!counting_)
		return;
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
