#include "frag_refs.hpp"

namespace niov {

void FragRefs::taken(const Frag &f) {
	auto &c = by_niov_[f.niov];
	++c.refs;
	++c.pieces;
	++held_;
}

void FragRefs::cut(const Frag &f) { ++by_niov_[f.niov].pieces; }

void FragRefs::freed(const Frag &f) {
	auto it = by_niov_.find(f.niov);
	if (it == by_niov_.end())
		return;	 // a piece the fill never made: nothing was taken for it
	auto &c = it->second;
	if (c.pieces)
		--c.pieces;
	if (c.refs > c.pieces) {
		--c.refs;
		--held_;
		impl_.frag_release(f);
	}
	if (c.pieces == 0 && c.refs == 0)
		by_niov_.erase(it);
}

}  // namespace niov
