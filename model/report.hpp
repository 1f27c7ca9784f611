// What one run of a scenario produced: results per step, invariant
// violations by id, and the differences between the model and a plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl.hpp"
#include "invariants.hpp"
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
	// send.skbs, skb.frags, frag.niov|off|len|truesize, sk_wmem_queued) and
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
	std::vector<SkbReport> skbs; // send: the skbs it filled
	int32_t wmem = 0;	     // sk_wmem_queued after the op
	uint64_t truesize_sum = 0;   // sum of the queued skbs' truesize
	uint32_t queued = 0;	     // skbs on the queue after the op
	// Explain mode: (len, truesize) of every queued skb after the op, and
	// why the op came out as it did (a short send, a refused shift).
	std::vector<std::pair<uint32_t, uint32_t>> queue;
	std::string why;
};

struct Probe {
	uint64_t virt = 0;
	LookupResult lookup;
};

struct Trace {
	std::string source;
	BindResult bind;
	int queue_err = 0;	    // RX/zcrx queue open (device rules, pp order)
	unsigned pp_order = 0;
	std::string explain;
	std::vector<Probe> probes;
	std::vector<std::pair<uint64_t, std::optional<uint64_t>>> niov_probes;
	std::vector<OpReport> ops;
	std::vector<Violation> violations;
};

struct RunOptions {
	bool explain = false;	    // record why each frag ended
	unsigned max_violations = 200;
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
	// The error a bind reports to the user: bind errno, else the queue error.
	static int bind_err(const Trace &t) { return t.bind.err ? t.bind.err : t.queue_err; }
};

// Run the scenario through the model and, if given, through the plugin.
RunReport run_scenario(const Scenario &sc, Impl *impl, const RunOptions &opts = {});

// One trace: drive @impl through the scenario checking every invariant.
Trace trace_scenario(const Scenario &sc, Impl &impl, const RunOptions &opts);

// Compare two traces; differences in the order they happen.
std::vector<Difference> diff_traces(const Trace &model, const Trace &impl);

}  // namespace niov
