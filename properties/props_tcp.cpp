// tcp.*: stateful properties (rc::state).  Commands send, ack (partial and
// spanning skbs), split (tso_fragment), shift (skb_shift) and free against
// the TCP harness; after every command the property's accounting invariant
// must hold on the oracle's exact arithmetic.  Amounts are chosen relative
// to the queue when the command runs (half the head skb, exactly the first
// k skbs plus one, a frag edge), so shrinking keeps them meaningful; the
// scenario file records the concrete numbers.
#include <rapidcheck/state.h>

#include "boundary.hpp"
#include "gen_send.hpp"
#include "props_common.hpp"
#include "tcp_harness.hpp"

namespace niov::props {

namespace {

constexpr int kMaxCommands = 12;

struct TcpModel {
	std::shared_ptr<const Scenario> base;  // configuration and sg table
	unsigned sends = 0;
};

using Cmd = rc::state::Command<TcpModel, TcpHarness>;

// Where an amount lands relative to the queue at run time.
enum class Rel : uint8_t { raw, part_of_head, head, head_plus_one, span, frag_edge, all, all_plus };

const char *rel_name(Rel r) {
	static const char *n[] = {"raw", "part of head", "head", "head+1", "span", "frag edge", "all", "all+"};
	return n[static_cast<size_t>(r)];
}

struct Amount {
	Rel rel = Rel::raw;
	uint64_t raw = 0;    // Rel::raw and Rel::all_plus
	unsigned k = 1;	     // skbs spanned / frag edge index
	int delta = 0;	     // -1, 0, +1 around the landing point
	unsigned frac = 500; // part of head: per mille

	explicit Amount(const Config &cfg) {
		static constexpr Rel kRels[] = {Rel::part_of_head, Rel::head, Rel::head_plus_one, Rel::span,
						Rel::frag_edge,	   Rel::all,  Rel::all_plus,	  Rel::raw};
		static constexpr int kDeltas[] = {0, 1, -1};
		rel = kRels[*uniform<size_t>(0, std::size(kRels))];
		// Only the fields resolve() reads for this landing point: every
		// draw is a RapidCheck choice (a Gen, a shrinkable, a recipe
		// entry), and the unused ones were most of an amount's cost.
		switch (rel) {
		case Rel::raw:
		case Rel::all_plus:
			raw = draw_tcp_amount(cfg);
			break;
		case Rel::part_of_head:
			frac = *uniform(1u, 1000u);
			break;
		case Rel::span:
		case Rel::frag_edge:
			k = *uniform(1u, 9u);
			delta = kDeltas[*uniform<size_t>(0, 3)];
			break;
		case Rel::head:
		case Rel::all:
			delta = kDeltas[*uniform<size_t>(0, 3)];
			break;
		case Rel::head_plus_one:
			break;
		}
	}

	// @lens: the skb lengths from the head of the queue (or, for a frag
	// edge, the frag lengths of the skb concerned).
	uint64_t resolve(const std::vector<uint64_t> &lens, const std::vector<uint64_t> &frag_lens) const {
		uint64_t total = 0;
		for (uint64_t l : lens)
			total += l;
		const uint64_t head = lens.empty() ? 0 : lens.front();
		uint64_t v = raw;
		switch (rel) {
		case Rel::raw:
			return raw;
		case Rel::part_of_head:
			return head * frac / 1000;
		case Rel::head:
			v = head;
			break;
		case Rel::head_plus_one:
			return head + 1;
		case Rel::span: {
			v = 0;
			for (size_t i = 0; i < lens.size() && i < k; ++i)
				v += lens[i];
			break;
		}
		case Rel::frag_edge: {
			v = 0;
			for (size_t i = 0; i < frag_lens.size() && i < k; ++i)
				v += frag_lens[i];
			break;
		}
		case Rel::all:
			v = total;
			break;
		case Rel::all_plus:
			return total + raw;
		}
		return v + static_cast<uint64_t>(static_cast<int64_t>(delta));
	}

	void show(std::ostream &os) const {
		os << rel_name(rel);
		if (rel == Rel::raw || rel == Rel::all_plus)
			os << " " << raw;
		if (rel == Rel::span || rel == Rel::frag_edge)
			os << " k=" << k;
		if (rel == Rel::part_of_head)
			os << " " << frac << "/1000";
		if (delta)
			os << (delta > 0 ? " +1" : " -1");
	}
};

std::vector<uint64_t> skb_lens(const TcpHarness &h, size_t from) {
	std::vector<uint64_t> v;
	for (size_t i = from; i < h.queue().size(); ++i)
		v.push_back(h.queue()[i].len);
	return v;
}

std::vector<uint64_t> frag_lens(const TcpHarness &h, size_t skb) {
	std::vector<uint64_t> v;
	if (skb < h.queue().size())
		for (const auto &f : h.queue()[skb].frags)
			v.push_back(f.len);
	return v;
}

struct Send : Cmd {
	Op op;
	explicit Send(const TcpModel &m) : op(draw_send(*m.base)) {}
	void apply(TcpModel &m) const override { ++m.sends; }
	void run(const TcpModel &, TcpHarness &h) const override { h.step(op); }
	void show(std::ostream &os) const override {
		os << "send";
		for (const auto &e : op.iov)
			os << fmt::format(" {:#x}+{}", e.base, e.len);
		if (op.length)
			os << " length=" << *op.length;
	}
};

// ack, split and shift: an amount resolved against the queue.
template <OpKind K>
struct TcpOp : Cmd {
	Amount amount;
	explicit TcpOp(const TcpModel &m) : amount(m.base->cfg) {}
	void checkPreconditions(const TcpModel &m) const override { RC_PRE(m.sends > 0u); }
	void run(const TcpModel &, TcpHarness &h) const override {
		Op op;
		op.kind = K;
		// shift moves bytes of the second skb; the others act on the head.
		const size_t first = K == OpKind::shift ? 1 : 0;
		op.n = amount.resolve(skb_lens(h, first), frag_lens(h, first));
		h.step(op);
	}
	void show(std::ostream &os) const override {
		os << (K == OpKind::ack ? "ack " : K == OpKind::split ? "split " : "shift ");
		amount.show(os);
	}
};

struct Free : Cmd {
	explicit Free(const TcpModel &) {}
	void run(const TcpModel &, TcpHarness &h) const override { h.step(Op{OpKind::free, {}, std::nullopt, 0, 0}); }
	void show(std::ostream &os) const override { os << "free"; }
};

void tcp_property(const Target &t, Inv own) {
	Shape s = shape_for(t, false);
	s.lies.clear();	 // honest tables: the accounting, not the bind, is under test
	Scenario base = *gen_scenario(s);
	base.rx_buf_size.reset();
	TcpHarness h(base, t.impl_for(base), t.impl_path_for(base), own);
	CaseGuard guard(h.scenario(), h.impl_path());
	const TcpModel m{std::make_shared<const Scenario>(base), 0};
	// Until the first send only a send is offered: the other commands'
	// precondition refuses them there, and RapidCheck learns that by a
	// thrown discard per refusal (two per case on average, a twentieth of
	// the run in the unwinder).  The preconditions stay for shrinking,
	// which drops sends.
	const auto any = rc::state::gen::execOneOfWithArgs<Send, Send, TcpOp<OpKind::ack>, TcpOp<OpKind::split>,
							   TcpOp<OpKind::shift>, Free>();
	const auto first = rc::state::gen::execOneOfWithArgs<Send>();
	const auto cmds = *rc::gen::resize(
		kMaxCommands,
		rc::state::gen::commands(m, [any, first](const TcpModel &now) { return now.sends ? any(now) : first(now); }));
	rc::state::runAll(cmds, m, h);
	h.step(Op{OpKind::free, {}, std::nullopt, 0, 0});
}

}  // namespace

void add_tcp_properties(std::vector<Property> &out) {
	out.push_back({"tcp.truesize_covers_bytes", "after any op sequence every skb's truesize >= head + bytes",
		       [](const Target &t) { tcp_property(t, Inv::tcp_truesize_covers_bytes); }});
	out.push_back({"tcp.truesize_no_wrap", "no truesize update wraps the u32",
		       [](const Target &t) { tcp_property(t, Inv::tcp_truesize_no_wrap); }});
	out.push_back({"tcp.wmem_nonneg", "sk_wmem_queued never goes below 0",
		       [](const Target &t) { tcp_property(t, Inv::tcp_wmem_nonneg); }});
	out.push_back({"tcp.wmem_sum", "sk_wmem_queued is exactly the sum of the queued skbs' truesize",
		       [](const Target &t) { tcp_property(t, Inv::tcp_wmem_sum); }});
	out.push_back({"tcp.freed_to_zero", "sk_wmem_queued is back to 0 once every skb is freed",
		       [](const Target &t) { tcp_property(t, Inv::tcp_freed_to_zero); }});
}

}  // namespace niov::props
