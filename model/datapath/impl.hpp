// What the suite drives: the reference model or an implementation plugin.
// Both answer the same questions; the runner checks every answer against the
// invariants and compares the two.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../plugins/include/niov_impl.h"
#include "rules.hpp"
#include "rx_allocator.hpp"
#include "scenario.hpp"
#include "seg_index.hpp"
#include "word.hpp"

namespace niov {

// Frags and iterators share the plugin ABI's layout, so a plugin fills the
// model's skb in place.
using Frag = niov_frag;
using IovIter = niov_iov_iter;
static_assert(sizeof(IovElem) == sizeof(niov_iov));

// What the engines compare of two frags (the model's and a plugin's): all
// but `reserved`, which the ABI leaves to the plugin.
inline bool same_frag(const Frag &a, const Frag &b) {
	return a.niov == b.niov && a.off == b.off && a.len == b.len && a.truesize == b.truesize;
}

static_assert(kNotRepresentable == NIOV_E_NOT_REPRESENTABLE);

struct BindResult {
	int err = 0;  // 0, a negative errno or kNotRepresentable
	unsigned niov_shift = 0;
	uint64_t num_niovs = 0;
	std::string extack;  // the code's extack message for a failed bind, if any
	// An RX bind whose code opened the queue itself (ABI v3): what opening
	// it returned.  Compared as the queue step, not as the bind's.
	std::optional<int> queue_err;
	// The answers the engines compare; the message is shown, not compared.
	bool operator==(const BindResult &o) const {
		return err == o.err && niov_shift == o.niov_shift && num_niovs == o.num_niovs;
	}
	bool not_representable() const { return err == kNotRepresentable; }
};

// Every path the ABI knows; the model has them all.
inline constexpr uint32_t kAllPaths = NIOV_CAPS_V1 | NIOV_CAP_RX_ALLOC | NIOV_CAP_PP_INIT | NIOV_CAP_TX_DESC;

struct LookupResult {
	int err = 0;  // 0 or -EFAULT
	uint64_t idx = 0, off = 0, size = 0;
	bool operator==(const LookupResult &) const = default;
};

class Impl {
public:
	virtual ~Impl() = default;
	virtual std::string name() const = 0;
	// RULES.md bind steps 1-6 (tx, rx) or the zcrx validation (zcrx).
	virtual BindResult bind(const Scenario &sc) = 0;
	virtual void unbind() = 0;
	virtual std::optional<uint64_t> niov_dma(uint64_t idx) const = 0;
	virtual LookupResult lookup(uint64_t virt) const = 0;
	// zerocopy_fill_skb_from_devmem on skb.frags[0..nr_frags) with room for
	// max_skb_frags; returns 0, -EMSGSIZE or -EFAULT.
	virtual int fill(niov_skb &skb, IovIter &it, int32_t length) = 0;
	// Optional parts; nullopt = not provided (the model's answer is used).
	virtual std::optional<int> pp_init(unsigned order) = 0;
	virtual std::optional<int> zcrx_validate(const Scenario &sc, uint32_t len,
						 unsigned area_max_shift) = 0;
	// Descriptor lengths for one frag, or a negative errno for a drop.
	virtual std::optional<int> encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) = 0;

	// --- ABI v2 ---
	// The paths the implementation has (NIOV_CAP_*): the engines ask it
	// nothing else and report the rest as not run.
	virtual uint32_t caps() const = 0;
	// Put back what the fill took for @f; the TCP model calls it once per
	// frag the fill made, when the last piece of it is freed.
	virtual void frag_release(const Frag &f) = 0;
	// false: frag_release does nothing (the model; a plugin without the
	// op), so the TCP model need not count references to call it.
	virtual bool takes_frag_refs() const { return true; }
	// Process-wide resource counters; nullopt: not tracked.
	virtual std::optional<niov_resources> resources() const = 0;
	// The RX binding's allocator; nullopt: the implementation has none.
	virtual std::optional<RxAllocResult> rx_alloc() = 0;
	virtual void rx_free(uint64_t idx) = 0;
};

// The reference model as an Impl.
class ModelImpl final : public Impl {
public:
	std::string name() const override { return "model"; }
	BindResult bind(const Scenario &sc) override;
	void unbind() override {}
	std::optional<uint64_t> niov_dma(uint64_t idx) const override;
	LookupResult lookup(uint64_t virt) const override;
	int fill(niov_skb &skb, IovIter &it, int32_t length) override;
	std::optional<int> pp_init(unsigned order) override;
	std::optional<int> zcrx_validate(const Scenario &sc, uint32_t len,
					 unsigned area_max_shift) override;
	std::optional<int> encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) override;
	uint32_t caps() const override { return kAllPaths; }
	void frag_release(const Frag &) override {}  // the rules take no references
	bool takes_frag_refs() const override { return false; }
	std::optional<niov_resources> resources() const override { return std::nullopt; }
	std::optional<RxAllocResult> rx_alloc() override;
	void rx_free(uint64_t idx) override;

	// Why the bind came out as it did, for `niovcheck explain`.
	std::string explanation() const;

private:
	const Scenario *sc_ = nullptr;
	SegIndex segs_;  // of the last successful bind
	unsigned shift_ = 0;
	uint64_t num_niovs_ = 0;
	// Where the last bind stopped, for explanation().
	enum class Stage : uint8_t { no_path, zcrx_len, zcrx_area, rx_attr, bind, bound } stage_ = Stage::bound;
	int err_ = 0;
	RxAllocator rx_;
};

// The kernel's iov_iter over a send's elements.
IovIter iov_iter_init(const std::vector<IovElem> &iov, uint64_t count);
void iov_iter_advance(IovIter &it, uint64_t n);
void iov_iter_revert(IovIter &it, uint64_t n, const IovElem *first);
inline uint64_t iter_iov_addr(const IovIter &it) { return it.iov->base + it.iov_offset; }
inline uint64_t iter_iov_len(const IovIter &it) { return it.iov->len - it.iov_offset; }

// The device's TX descriptor lengths for one frag (RULES.md device table), or
// a negative errno when the driver drops the packet.
int device_encode_tx_desc(Device dev, uint32_t frag_len, std::vector<uint32_t> &lens);
// mp_dmabuf_devmem_init's order check.
int pp_order_check(unsigned niov_shift, unsigned page_shift, unsigned order);

// io_uring zcrx: 0, or -ENOMEM when the area's niov array cannot be had.
int zcrx_area_errno(uint64_t area_size, unsigned niov_shift);

// Lowest set bit of every segment length: io_uring's io_area_max_shift.
unsigned zcrx_area_max_shift(const Scenario &sc);

}  // namespace niov
