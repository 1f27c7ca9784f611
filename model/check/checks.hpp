// The invariant checks and the TCP socket model the trace runs on.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "buffer_stash.hpp"
#include "frag_refs.hpp"
#include "report.hpp"
#include "seg_index.hpp"
#include "skb_queue.hpp"

namespace niov {

// What bounded a frag when it was cut, for frag.limits and for `explain`.
struct FragLimits {
	uint64_t niov_rem = 0;	 // niov size - offset (model granularity)
	uint64_t length = 0;	 // bytes the fill still had to place
	uint64_t iov_rem = 0;	 // bytes left in the iov element
	uint64_t dev_max = 0;	 // device max frag, UINT64_MAX when not applied
};

// What changed between two readings of the resource counters: leaks,
// unbalanced references, new WARNs or BUGs (res.*).
struct ResourceFinding {
	Inv inv;
	std::string detail;
};
std::vector<ResourceFinding> resource_findings(const niov_resources &before, const niov_resources &after);

class Checker {
public:
	Checker(const Scenario &sc, Impl &impl, Trace &t, const RunOptions &opts);

	void set_step(uint32_t step, uint32_t line) {
		step_ = step;
		line_ = line;
	}
	void fail(Inv inv, std::string detail);
	// Formats the detail only when the violation will be recorded: the
	// same invariant firing on every frag of a step must stay cheap.
	template <class Detail>
	void fail_with(Inv inv, Detail &&detail) {
		if (wants(inv))
			fail(inv, detail());
	}
	bool wants(Inv inv);

	void after_bind();
	void after_queue_open();
	void probe(const Probe &p);
	void niov_table(const std::vector<std::pair<uint64_t, std::optional<uint64_t>>> &probes);
	// One frag the fill just added; returns the reason it ended (explain).
	CutBy frag(const Frag &f, uint64_t virt, const FragLimits &lim);
	// An skb whose nr_frags frags start at @frags.
	void skb(const Skb &s, SkbQueue::FragIt frags, bool fresh_from_send);
	void socket(uint32_t wmem, uint64_t truesize_sum);
	void freed(uint32_t wmem);
	// The RX allocator: one niov it handed out, then the rounds (rx_sweep).
	void rx_niov(const RxNiov &n);
	void rx_rounds(const RxAllocReport &rep);
	// The counters before the bind against those after the unbind.
	void resources(const niov_resources &before, const niov_resources &after);

	const Scenario &scenario() const { return sc_; }
	unsigned niov_shift() const { return t_.bind.niov_shift; }

private:
	bool byte_map_at(uint64_t virt, uint64_t &dma) const;
	CutBy cut_by(const Frag &f, uint64_t niov_size, const FragLimits &lim) const;
	void gve_segments(const Skb &s, SkbQueue::FragIt frags);

	const Scenario &sc_;
	Impl &impl_;
	Trace &t_;
	const RunOptions &opts_;
	SegIndex segs_;
	uint32_t step_ = 0;
	uint32_t line_ = 0;
	uint64_t seen_ = 0;  // bitmask of invariants already reported this step
	StashedVector<uint32_t> lens_;  // scratch for descriptor lengths
	uint32_t seen_step_ = UINT32_MAX;
	// is_known_finding per invariant, asked once a run: a kernel with a
	// known bug fails the same check on every niov of a sweep.
	uint64_t known_asked_ = 0, known_ = 0;
};

class Socket {
public:
	Socket(const Scenario &sc, Impl &impl, Checker &chk, const RunOptions &opts, bool usable);
	OpReport apply(const Op &op);
	// The socket closes: every skb left is freed, no check runs.
	void close();

private:
	int64_t send(const Op &op, OpReport &rep);
	void ack(uint64_t n);
	void split(uint64_t n);
	void shift(uint64_t n);
	void free_all();

	Skb &new_skb(const Op &op);  // throws LimitError past RunOptions::max_skbs
	void set_truesize(Skb &s, uint64_t wide);  // stores the u32, flags wraps
	void wmem_add(int64_t delta);
	void uncharge(const Skb &s);  // an skb's truesize leaves the socket
	void release_skb(size_t i);   // skb @i leaves the queue: its frags go back, then uncharge
	SkbQueue::FragIt release(const Skb &s, SkbQueue::FragIt frags);  // one past its frags
	// Replay the kernel's iterator to learn where each new frag came from.
	void check_new_frags(std::vector<QueuedFrag> &frags, uint32_t from, IovIter it, int32_t length);
	SkbReport report(const Skb &s, SkbQueue::FragIt frags) const;
	static uint64_t digest(uint64_t h, const Skb &s, SkbQueue::FragIt frags);

	const Scenario &sc_;
	Impl &impl_;
	Checker &chk_;
	const RunOptions &opts_;  // explain: say why each step came out so
	bool usable_;
	SkbQueue q_;
	uint32_t wmem_ = 0;	   // sk_wmem_queued, an int kept as its bits
	uint64_t ts_sum_ = 0;	   // exact sum of the queued skbs' truesize
	uint64_t frags_made_ = 0;  // by every send so far, for the limits
	uint64_t skbs_made_ = 0;
	// The plain array a fill writes (room for the largest MAX_SKB_FRAGS),
	// and the frags of the one or two skbs an operation reshapes.
	std::array<Frag, kMaxMaxSkbFrags> fill_{};
	StashedVector<QueuedFrag> work_, moved_;
	StashedVector<IovElem> iov_;  // the send's elements after import_iovec
	StashedVector<Frag> cuts_;    // shift: frags left in two pieces
	FragRefs refs_;		   // what the fill took, given back as frags go
};

}  // namespace niov
