// A plugin run with the model asked the same questions beside it: one run
// of the TCP model where the fuzz harness made two.
//
// Beside a plugin the harness compares the plugin's trace with the model's.
// The TCP model and the checks are a function of the answers the
// implementation gives, so where every answer of the model equals the
// plugin's, a run of the model alone would have produced the same trace:
// only the answers need comparing, and the model's own run of the socket
// (a fifth of a send input) is skipped.  Where one answer differs the
// lockstep says so and the harness runs the model alone and compares the
// traces as before; it is never the judge of a difference, only of their
// absence.  The answers are compared more strictly than the traces are (the
// iterator a fill leaves, calls the checks make), so a strict difference
// costs a second run, never a finding.  Once an answer differs the shadow
// is asked nothing more (but its unbind): its state may not be one the
// primary's answers lead to.
#pragma once

#include <array>
#include <vector>

#include "config.hpp"
#include "impl.hpp"

namespace niov {

class LockstepImpl final : public Impl {
public:
	// @primary's answers drive the run; @shadow is asked the same.
	LockstepImpl(Impl &primary, Impl &shadow) : primary_(primary), shadow_(shadow) {}

	// An answer of the shadow differed from the primary's.
	bool diverged() const { return diverged_; }

	std::string name() const override { return primary_.name(); }
	uint32_t caps() const override { return primary_.caps(); }
	BindResult bind(const Scenario &sc) override;
	void unbind() override;
	std::optional<uint64_t> niov_dma(uint64_t idx) const override;
	LookupResult lookup(uint64_t virt) const override;
	int fill(niov_skb &skb, IovIter &it, int32_t length) override;
	std::optional<int> pp_init(unsigned order) override;
	std::optional<int> zcrx_validate(const Scenario &sc, uint32_t len, unsigned area_max_shift) override;
	std::optional<RxAllocResult> rx_alloc() override;
	void rx_free(uint64_t idx) override;
	// The primary's alone: the checks ask for them and the traces never
	// compare them (the shadow's release does nothing, its resources are
	// not tracked).
	std::optional<int> encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) override {
		return primary_.encode_tx_desc(frag_len, lens);
	}
	void frag_release(const Frag &f) override { primary_.frag_release(f); }
	bool takes_frag_refs() const override { return primary_.takes_frag_refs(); }
	std::optional<niov_resources> resources() const override { return primary_.resources(); }

private:
	template <class T>
	T same(T primary, const T &shadow) const {
		if (!(primary == shadow))
			diverged_ = true;
		return primary;
	}

	Impl &primary_;
	Impl &shadow_;
	mutable bool diverged_ = false;
	// The sends have started.  The trace records the niov table and the
	// lookups before them, in its probes; after, only the checks ask, and
	// what they are told is never compared: the primary answers alone.
	bool filling_ = false;
	uint32_t max_frags_ = 0;  // the bound scenario's MAX_SKB_FRAGS
	// The shadow's skb, filled beside the primary's (the socket's own
	// array is as large).
	std::array<Frag, kMaxMaxSkbFrags> shadow_frags_{};
};

}  // namespace niov
