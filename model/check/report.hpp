// What one run of a scenario produced: results per step, invariant
// violations by id, and the differences between the model and a plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "buffer_stash.hpp"
#include "code_sites.hpp"  // code_site(), for the reports
#include "impl.hpp"
#include "invariants.hpp"
#include "limits.hpp"
#include "scenario.hpp"

namespace niov {

// Step 0 is the bind; step k is the k-th operation of the scenario.
struct Violation {
	std::string invariant;
	uint32_t step = 0;
	uint32_t line = 0;
	std::string source;  // "model" or the plugin's name
	std::string detail;
};

struct Difference {
	uint32_t step = 0;
	uint32_t line = 0;
	std::string what;   // for a person: "skb 2 frag 0"
	std::string model;  // the two answers as text
	std::string impl;
	// The same, structured: which answer differs (bind.err, bind.niov_shift,
	// bind.num_niovs, bind.queue_err, get_niov_at, niov_dma, send.result,
	// send.skbs, skb.frags, frag.niov|off|len|truesize, send.digest,
	// sk_wmem_queued) and
	// where (skb and frag index, the probed offset or niov index; -1 = n/a).
	std::string field;
	int64_t skb = -1, frag = -1;
	std::optional<uint64_t> at;
};


// Which limit ended a frag (explain mode; none otherwise).
enum class CutBy : uint8_t { none, device_max, niov_end, iov_end, size_goal };

constexpr std::string_view name(CutBy c) {
	switch (c) {
	case CutBy::none: return "";
	case CutBy::device_max: return "device max frag";
	case CutBy::niov_end: return "niov end";
	case CutBy::iov_end: return "iov element end";
	case CutBy::size_goal: return "skb size_goal / send length";
	}
	return "?";
}

struct FragReport {
	Frag frag{};
	uint64_t virt = 0;	       // dmabuf offset the frag was cut from
	CutBy cut_by = CutBy::none;  // which limit ended it (explain mode)
};

struct SkbReport {
	uint32_t len = 0;
	uint32_t truesize = 0;
	std::vector<FragReport> frags;
};

struct OpReport {
	OpKind kind = OpKind::send;
	uint32_t line = 0;
	int64_t result = 0;	     // send: bytes or negative errno
	std::vector<SkbReport> skbs; // send: the skbs it filled (RunOptions::record_skbs)
	uint32_t skb_count = 0;	     // send: how many skbs it filled
	uint64_t skb_digest = 0;     // send: of their frags (RunOptions::digest_skbs)
	int32_t wmem = 0;	     // sk_wmem_queued after the op
	uint64_t truesize_sum = 0;   // sum of the queued skbs' truesize
	uint32_t queued = 0;	     // skbs on the queue after the op
	// Explain mode: the head of the queue after the op as runs of skbs of
	// equal (len, truesize), and why the op came out as it did (a short
	// send, a refused shift).  Only the first kQueueSkbsShown skbs are
	// looked at: listing the whole queue after every op made explain
	// quadratic in time and memory (N sends and N acks of one byte).
	static constexpr uint32_t kQueueSkbsShown = 64;
	struct QueueRun {
		uint32_t len = 0, truesize = 0;
		uint32_t count = 0;
	};
	std::vector<QueueRun> queue;
	uint32_t queue_rest = 0;  // queued skbs past the ones in @queue
	std::string why;
};

struct Probe {
	uint64_t virt = 0;
	LookupResult lookup;
};

// The RX allocator check (RULES.md "RX allocator"): two rounds of
// num_niovs + 1 allocations, everything freed after each.
struct RxAllocRound {
	uint64_t handed = 0;  // niovs handed out
	uint64_t failed = 0;  // calls that failed
	bool last_failed = false;
};

struct RxAllocReport {
	bool ran = false;
	RxAllocRound rounds[2];
	std::vector<RxNiov> niovs;  // round 1's, sorted
	bool same_again = true;	    // round 2 handed out exactly round 1's niovs
};

struct Trace {
	// The implementation's word on where its answers come from (ABI v3
	// code_sites; kernel code: its functions and lines), for the reports.
	std::string code_sites;
	std::string source;
	// False: the implementation was asked nothing (it lacks the path, see
	// not_run); nothing of this trace is compared.
	bool ran = true;
	// What was not run and why, e.g. "get_niov_at (plugin lacks lookup)".
	std::vector<std::string> not_run;
	BindResult bind;
	int queue_err = 0;	    // RX/zcrx queue open (device rules, pp order)
	unsigned pp_order = 0;
	std::string explain;
	// Stashed: every run of a fuzz target makes a trace, and these were
	// most of its allocations besides the RX allocator's.
	StashedVector<Probe> probes;
	StashedVector<std::pair<uint64_t, std::optional<uint64_t>>> niov_probes;
	StashedVector<OpReport> ops;
	RxAllocReport rx_alloc;
	// Resource counters before the bind and after the unbind (ABI v2).
	std::optional<niov_resources> res_before, res_after;
	std::vector<Violation> violations;
};

struct RunOptions {
	bool explain = false;	    // record why each frag ended
	unsigned max_violations = 200;
	// The skbs each send filled, with their frags, in OpReport::skbs: what
	// the traces are compared on.  A run only its violations are read
	// from (the fuzz harness with the model alone) leaves them out.
	bool record_skbs = true;
	// Instead, a 64-bit digest of each send's frags (every field the
	// comparison reads), which diff_traces compares when neither trace has
	// the skbs: one number per send instead of a vector per skb.  A reader
	// that finds a difference this way runs again with record_skbs to name
	// the frag (the fuzz harness).
	bool digest_skbs = false;
	// Trace::explain, why the bind came out as it did: the reports show
	// it; the fuzz harness, which reads violations and differences only,
	// leaves it out.
	bool explain_bind = true;
	// The most frags and skbs the sends may build in all; one more stops
	// the run with LimitError.  The scenario limits by default; the fuzz
	// harness holds each input to its work budget this way, whatever the
	// input's estimate said (an era with no bounds check in its lookup runs
	// a send on past the dmabuf's end).
	uint64_t max_frags = kMaxScenarioFrags;
	uint64_t max_skbs = kMaxScenarioSkbs;
	// RX bindings of more niovs than this are not swept (rx_sweep.hpp);
	// the trace says so.  0: no sweep at all (a run that judges no
	// allocator), and nothing said.
	uint64_t rx_sweep_max_niovs = kRxSweepMaxNiovs;
	// Leave out the violations the scenario's known findings explain
	// (findings.hpp), unworded: for a reader that drops them anyway (the
	// fuzz harness, where a lying exporter or an unchecked era words one
	// on most inputs).
	bool skip_known_findings = false;
	// false: the run records what the implementation did and checks none
	// of it.  For the fuzz harness's model run beside a plugin: the two
	// runs are compared output for output, so when they agree the plugin's
	// checked run has judged the same outputs, and when they differ the
	// harness runs the model again, checked, to word the difference.
	bool check = true;
};

struct RunReport {
	std::string scenario;
	Trace model;
	std::optional<Trace> impl;
	std::vector<Difference> differences;

	bool clean() const {
		return model.violations.empty() && differences.empty() &&
		       (!impl || impl->violations.empty());
	}
	// The implementation could not be handed the input: nothing compared.
	bool not_representable() const { return impl && impl->bind.not_representable(); }
	// Parts of the implementation's run that did not happen.
	bool partial() const { return impl && !impl->not_run.empty(); }
	// "violation", "not representable", "not run" (the implementation was
	// asked nothing), "partial" (some paths not run) or "clean".  Only
	// "clean" is a pass of the comparison.
	std::string verdict() const;
	// The error a bind reports to the user: bind errno, else the queue error.
	static int bind_err(const Trace &t) { return t.bind.err ? t.bind.err : t.queue_err; }
};

// Run the scenario through the model and, if given, through the plugin.
RunReport run_scenario(const Scenario &sc, Impl *impl, const RunOptions &opts = {});

// One trace: drive @impl through the scenario checking every invariant.
Trace trace_scenario(const Scenario &sc, Impl &impl, const RunOptions &opts);

// Compare two traces; differences in the order they happen.
std::vector<Difference> diff_traces(const Trace &model, const Trace &impl);

// The kind of answer a difference's field is (one decision of the code):
// "bind", "rx queue", "lookup", "rx alloc", "frags" or "truesize".
std::string answer_class(const std::string &field);

}  // namespace niov
