#include "lockstep_impl.hpp"

#include <algorithm>

namespace niov {

namespace {

bool same_iter(const IovIter &a, const IovIter &b) {
	return a.iov == b.iov && a.nr_segs == b.nr_segs && a.iov_offset == b.iov_offset && a.count == b.count;
}

}  // namespace

BindResult LockstepImpl::bind(const Scenario &sc) {
	max_frags_ = std::min(sc.cfg.max_skb_frags, kMaxMaxSkbFrags);
	filling_ = false;
	const BindResult s = shadow_.bind(sc);
	const BindResult p = primary_.bind(sc);
	// An input the primary cannot take ends its run here, and the traces
	// are not compared: nothing to tell.
	if (!p.not_representable() && !(p == s))
		diverged_ = true;
	return p;
}

void LockstepImpl::unbind() {
	shadow_.unbind();
	primary_.unbind();
}

std::optional<uint64_t> LockstepImpl::niov_dma(uint64_t idx) const {
	if (diverged_ || filling_)
		return primary_.niov_dma(idx);
	const auto s = shadow_.niov_dma(idx);
	return same(primary_.niov_dma(idx), s);
}

LookupResult LockstepImpl::lookup(uint64_t virt) const {
	if (diverged_ || filling_)
		return primary_.lookup(virt);
	const auto s = shadow_.lookup(virt);
	return same(primary_.lookup(virt), s);
}

int LockstepImpl::fill(niov_skb &skb, IovIter &it, int32_t length) {
	if (diverged_)
		return primary_.fill(skb, it, length);
	filling_ = true;
	// The shadow fills a copy of the skb and the iterator as they were.
	const uint32_t had = std::min(skb.nr_frags, max_frags_);
	std::copy(skb.frags, skb.frags + had, shadow_frags_.begin());
	niov_skb s_skb{shadow_frags_.data(), had, skb.len, skb.truesize};
	IovIter s_it = it;
	const int s = shadow_.fill(s_skb, s_it, length);
	const int p = primary_.fill(skb, it, length);
	if (p != s || skb.nr_frags != s_skb.nr_frags || skb.len != s_skb.len || skb.truesize != s_skb.truesize ||
	    !same_iter(it, s_it) || skb.nr_frags > max_frags_ ||
	    !std::equal(skb.frags, skb.frags + skb.nr_frags, shadow_frags_.data(), same_frag))
		diverged_ = true;
	return p;
}

std::optional<int> LockstepImpl::pp_init(unsigned order) {
	if (diverged_)
		return primary_.pp_init(order);
	// Without the call the run takes the model's order check, which is the
	// shadow's answer for the same binding: nothing to compare.
	const auto s = shadow_.pp_init(order);
	const auto p = primary_.pp_init(order);
	if (p && s != p)
		diverged_ = true;
	return p;
}

std::optional<int> LockstepImpl::zcrx_validate(const Scenario &sc, uint32_t len, unsigned area_max_shift) {
	if (diverged_)
		return primary_.zcrx_validate(sc, len, area_max_shift);
	const auto s = shadow_.zcrx_validate(sc, len, area_max_shift);
	const auto p = primary_.zcrx_validate(sc, len, area_max_shift);
	if (p && s != p)
		diverged_ = true;
	return p;
}

std::optional<RxAllocResult> LockstepImpl::rx_alloc() {
	if (diverged_)
		return primary_.rx_alloc();
	const auto s = shadow_.rx_alloc();
	const auto p = primary_.rx_alloc();
	// The traces compare what was handed out, not the order: any other
	// order is a difference here, and the traces decide.
	if (!p || !s || p->err != s->err || !(p->niov == s->niov))
		diverged_ = true;
	return p;
}

void LockstepImpl::rx_free(uint64_t idx) {
	if (!diverged_)
		shadow_.rx_free(idx);
	primary_.rx_free(idx);
}

}  // namespace niov
