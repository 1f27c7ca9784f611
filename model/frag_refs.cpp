#include "frag_refs.hpp"

namespace niov {

FragRefs::Count *FragRefs::find(uint64_t niov) {
	if (Count *c = dense(niov))
		return c;
	const auto it = sparse_.find(niov);
	return it == sparse_.end() ? nullptr : &it->second;
}

FragRefs::Count &FragRefs::at(uint64_t niov) {
	if (Count *c = dense(niov))
		return *c;
	if (dense_.empty())
		base_ = niov;
	if (niov >= base_ && niov - base_ < kDense) {
		dense_.resize(niov - base_ + 1);
		return dense_.back();
	}
	return sparse_[niov];
}

void FragRefs::drop(uint64_t niov) {
	if (!dense(niov))
		sparse_.erase(niov);
}

void FragRefs::taken(const Frag &f) {
	auto &c = at(f.niov);
	++c.refs;
	++c.pieces;
	++held_;
}

void FragRefs::cut(const Frag &f) { ++at(f.niov).pieces; }

void FragRefs::freed(const Frag &f) {
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
	if (c->pieces == 0 && c->refs == 0)
		drop(f.niov);
}

}  // namespace niov
