// The reference model's per-buffer answers: the RX allocator, the niov
// table, get_niov_at, the TX fill and the device's descriptors.  Apart from
// the bind (model_impl.cpp) because these run per niov and per frag: the
// fuzz build leaves their compares untraced (fuzz/libfuzzer.cmake).
#include "impl.hpp"

namespace niov {

namespace {
using W = Concrete;
}  // namespace

std::optional<RxAllocResult> ModelImpl::rx_alloc() {
	if (!sc_ || sc_->dir != Dir::rx)
		return std::nullopt;
	return rx_.alloc();
}

void ModelImpl::rx_free(uint64_t idx) { rx_.free(idx); }

std::optional<uint64_t> ModelImpl::niov_dma(uint64_t idx) const {
	const auto a = segs_.niov_dma(num_niovs_, idx);
	if (!a.ok)
		return std::nullopt;
	return a.dma;
}

LookupResult ModelImpl::lookup(uint64_t virt) const {
	const uint64_t gran = rules::lookup_shift<W>(sc_->cfg.policy, sc_->cfg.page_shift, shift_);
	const auto l = rules::get_niov_at<W>(sc_->dmabuf_size, gran, virt);
	if (!l.ok)
		return {-kEFAULT, 0, 0, 0};
	return {0, l.idx, l.off, l.size};
}

int ModelImpl::fill(niov_skb &skb, IovIter &it, int32_t length) {
	const auto &cfg = sc_->cfg;
	const uint64_t dev_max = cfg.device_tx_max_frag();
	uint32_t i = skb.nr_frags;
	while (length != 0 && it.count != 0) {
		if (i == cfg.max_skb_frags)
			return -kEMSGSIZE;
		// rules::fill_frag is the loop body the proofs instantiate symbolically.
		const auto f = rules::fill_frag<W>(
			cfg.policy, cfg.page_shift, sc_->dmabuf_size,
			rules::lookup_shift<W>(cfg.policy, cfg.page_shift, shift_), iter_iov_addr(it),
			static_cast<uint64_t>(length), iter_iov_len(it), dev_max);
		if (!f.ok)
			return -kEFAULT;
		skb.frags[i] = {f.idx, f.off, f.len, f.charge, 0};
		skb.len += f.len;
		skb.truesize += f.charge;
		iov_iter_advance(it, f.size);
		length -= static_cast<int32_t>(f.size);
		skb.nr_frags = ++i;
	}
	return 0;
}

std::optional<int> ModelImpl::encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) {
	return device_encode_tx_desc(sc_->cfg.device, frag_len, lens);
}

int device_encode_tx_desc(Device dev, uint32_t frag_len, std::vector<uint32_t> &lens) {
	lens.clear();
	if (dev == Device::gve) {
		// ceil(len / 16383) descriptors: an empty frag writes none.
		for (uint32_t left = frag_len; left != 0;) {
			const uint32_t piece = left < kGveMaxBufSize ? left : kGveMaxBufSize;
			lens.push_back(piece);
			left -= piece;
		}
		return 0;
	}
	if (dev == Device::fbnic && !rules::desc_exact<W>(dev, frag_len))
		return -kENOMEM;  // "TX DMA map failed": the packet is dropped
	lens.push_back(rules::desc_field<W>(dev, frag_len));
	return 0;
}

}  // namespace niov
