#include "tcp_harness.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "breadcrumb.hpp"
#include "case_record.hpp"
#include "verdict.hpp"

namespace niov::props {

struct TcpHarness::Side {
	Side(const Scenario &sc, Impl &impl)
		: impl_(impl), chk(sc, impl, trace, opts) {
		trace.source = impl.name();
		trace.bind = impl.bind(sc);
		if (trace.bind.err == 0)
			chk.after_bind();
		sock = std::make_unique<Socket>(sc, impl, chk, opts, trace.bind.err == 0 && sc.dir == Dir::tx);
	}
	// Every frag goes back before the unbind, also when the case failed
	// midway: a binding left holding references would outlive the case and
	// reach the next one in the same process.
	~Side() {
		try {
			if (sock)
				sock->close();
		} catch (...) {	 // a plugin fault while closing: the unbind still runs
		}
		impl_.unbind();
	}
	Impl &impl_;
	Trace trace;
	RunOptions opts;
	Checker chk;
	std::unique_ptr<Socket> sock;
};

TcpHarness::TcpHarness(const Scenario &base, Impl *impl, std::string impl_path, Inv own)
	: sc_(std::make_unique<Scenario>(base)), impl_path_(impl ? std::move(impl_path) : std::string()),
	  own_(own) {
	record_case(*sc_);
	sides_.push_back(std::make_unique<Side>(*sc_, model_));
	if (impl)
		sides_.push_back(std::make_unique<Side>(*sc_, *impl));
}

TcpHarness::~TcpHarness() = default;

bool TcpHarness::bound() const { return sides_.front()->trace.bind.err == 0; }

void TcpHarness::apply(Op op) {
	op.line = 0;
	sc_->ops.push_back(op);
	const uint32_t step = static_cast<uint32_t>(sc_->ops.size());
	record_case(*sc_);
	crumb_step(step, 0);
	// Each side's trace keeps only this op's report: the checks and the
	// oracle need no more, and long sends make reports large.
	for (auto &s : sides_) {
		s->chk.set_step(step, 0);
		s->trace.ops.clear();
		s->trace.ops.push_back(s->sock->apply(sc_->ops.back()));
	}
	if (sides_.size() > 1) {
		auto d = diff_traces(sides_[0]->trace, sides_[1]->trace);
		for (auto &x : d)
			if (x.step)  // the trace holds this op alone
				x.step = step;
		require_no_differences(d);
	}
	const OpReport &rep = sides_[0]->trace.ops.back();
	account(sc_->ops.back(), rep);
	reported_ = rep.wmem;
	freed_ = op.kind == OpKind::free;
	// The oracle follows the model through every op: same queue length and,
	// modulo 2^32 (the kernel's int), the same sk_wmem_queued.
	if (rep.queued != q_.size() || static_cast<uint32_t>(rep.wmem) != static_cast<uint32_t>(wmem_))
		RC_FAIL(fmt::format("step {}: the model queues {} skbs with sk_wmem_queued {}, the oracle {} "
				    "with {}",
				    step, rep.queued, rep.wmem, q_.size(), wmem_));
}

void TcpHarness::account(const Op &op, const OpReport &rep) {
	switch (op.kind) {
	case OpKind::send:
		for (const auto &s : rep.skbs) {
			AcctSkb a{s.len, s.truesize, {}};
			for (const auto &f : s.frags)
				a.frags.push_back(f.frag);
			wmem_ += a.truesize;
			q_.push_back(std::move(a));
		}
		break;
	case OpKind::ack:
		ack(op.n);
		break;
	case OpKind::split:
		split(op.n);
		break;
	case OpKind::shift:
		shift(op.n);
		break;
	case OpKind::free:
		for (const auto &s : q_)
			wmem_ -= s.truesize;
		q_.clear();
		break;
	}
}

// RULES.md "ack n": fully acked skbs are freed, the next one is trimmed by
// the rest (frags no longer than what is left to eat go, empty ones too).
void TcpHarness::ack(uint64_t n) {
	while (n > 0 && !q_.empty()) {
		AcctSkb &s = q_.front();
		if (s.len <= n) {
			n -= s.len;
			wmem_ -= s.truesize;
			q_.erase(q_.begin());
			continue;
		}
		uint64_t eat = n;
		std::vector<Frag> kept;
		for (Frag f : s.frags) {
			if (f.len <= eat) {
				eat -= f.len;
				continue;
			}
			f.off += static_cast<uint32_t>(eat);
			f.len -= static_cast<uint32_t>(eat);
			eat = 0;
			kept.push_back(f);
		}
		s.frags = std::move(kept);
		s.len -= n;
		s.truesize -= static_cast<int64_t>(n);
		wmem_ -= static_cast<int64_t>(n);
		return;
	}
}

// RULES.md "split n": tso_fragment of the head skb.
void TcpHarness::split(uint64_t at) {
	if (q_.empty() || at == 0 || at >= q_.front().len)
		return;
	AcctSkb &s = q_.front();
	const int64_t head = sc_->cfg.skb_head_truesize;
	AcctSkb tail{s.len - at, head + static_cast<int64_t>(s.len - at), {}};
	std::vector<Frag> keep;
	uint64_t pos = 0;
	for (const Frag &f : s.frags) {
		if (pos + f.len <= at) {
			keep.push_back(f);
		} else if (pos >= at) {
			tail.frags.push_back(f);
		} else {
			Frag a = f, b = f;
			a.len = static_cast<uint32_t>(at - pos);
			b.off += a.len;
			b.len -= a.len;
			keep.push_back(a);
			tail.frags.push_back(b);
		}
		pos += f.len;
	}
	s.frags = std::move(keep);
	s.truesize -= static_cast<int64_t>(s.len - at);
	s.len = at;
	wmem_ += head;
	q_.insert(q_.begin() + 1, std::move(tail));
}

// RULES.md "shift n": skb_shift from the second skb onto the head one.
void TcpHarness::shift(uint64_t n) {
	if (q_.size() < 2 || n == 0 || n > q_[1].len)
		return;
	AcctSkb &to = q_[0], &from = q_[1];
	std::vector<Frag> tf = to.frags, ff;
	uint64_t todo = n;
	for (Frag f : from.frags) {
		if (todo) {
			const uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(todo, f.len));
			Frag moved = f;
			moved.len = take;
			tf.push_back(moved);
			todo -= take;
			f.off += take;
			f.len -= take;
			if (f.len == 0)
				continue;
		}
		ff.push_back(f);
	}
	if (tf.size() > sc_->cfg.max_skb_frags)
		return;	 // skb_shift refuses
	to.frags = std::move(tf);
	from.frags = std::move(ff);
	to.len += n;
	to.truesize += static_cast<int64_t>(n);
	from.len -= n;
	from.truesize -= static_cast<int64_t>(n);
	if (from.len == 0) {
		wmem_ -= from.truesize;
		q_.erase(q_.begin() + 1);
	}
}

void TcpHarness::check(Inv own) const {
	const uint32_t step = static_cast<uint32_t>(sc_->ops.size());
	record_case(*sc_);
	crumb_step(step, 0);
	const int64_t head = sc_->cfg.skb_head_truesize;
	int64_t sum = 0;
	for (size_t i = 0; i < q_.size(); ++i) {
		const AcctSkb &s = q_[i];
		sum += s.truesize;
		if (own == Inv::tcp_truesize_covers_bytes && s.truesize < head + static_cast<int64_t>(s.len))
			RC_FAIL(fmt::format("step {}: skb {} holds {} bytes with truesize {} < head {} + len",
					    step, i, s.len, s.truesize, head));
		if (own == Inv::tcp_truesize_no_wrap && (s.truesize < 0 || s.truesize > int64_t{UINT32_MAX}))
			RC_FAIL(fmt::format("step {}: skb {} truesize is {} exactly: the u32 wrapped", step, i,
					    s.truesize));
	}
	if (own == Inv::tcp_wmem_nonneg && (wmem_ < 0 || reported_ < 0))
		RC_FAIL(fmt::format("step {}: sk_wmem_queued {} (exactly {})", step, reported_, wmem_));
	if (own == Inv::tcp_wmem_sum && (sum != wmem_ || int64_t{reported_} != sum))
		RC_FAIL(fmt::format("step {}: sk_wmem_queued {} (exactly {}), queued truesize adds up to {}", step,
				    reported_, wmem_, sum));
	if (own == Inv::tcp_freed_to_zero && freed_ && (wmem_ != 0 || reported_ != 0))
		RC_FAIL(fmt::format("step {}: sk_wmem_queued {} (exactly {}) after freeing every skb", step,
				    reported_, wmem_));
	for (const auto &s : sides_)
		require_clean(s->trace, *sc_, own);
}

}  // namespace niov::props
