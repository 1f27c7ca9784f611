// The TCP side of devmem TX: tcp_sendmsg's skb loop around the fill, and the
// operations that later move or drop payload bytes and their truesize.
// Every operation costs O(the frags it creates, moves or frees): the queue
// (skb_queue.hpp) never copies what it holds, and only the new skbs of a
// send are closed, reported and checked.
#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "checks.hpp"
#include "limits.hpp"
#include "mix64.hpp"

namespace niov {

namespace {

using W = Concrete;

// MAX_RW_COUNT: the most one sendmsg can move.
uint64_t max_rw_count(const Config &cfg) { return INT32_MAX & ~(cfg.page_size() - 1); }

}  // namespace

Socket::Socket(const Scenario &sc, Impl &impl, Checker &chk, const RunOptions &opts, bool usable)
	: sc_(sc), impl_(impl), chk_(chk), opts_(opts), usable_(usable), refs_(impl) {}

OpReport Socket::apply(const Op &op) {
	OpReport rep;
	rep.kind = op.kind;
	rep.line = op.line;
	switch (op.kind) {
	case OpKind::send:
		rep.result = send(op, rep);
		break;
	case OpKind::ack:
		ack(op.n);
		break;
	case OpKind::split:
		if (opts_.explain && (q_.empty() || op.n == 0 || op.n >= q_.front().len))
			rep.why = fmt::format("nothing split: {} is not inside the head skb ({} bytes)", op.n,
					      q_.empty() ? 0 : q_.front().len);
		split(op.n);
		break;
	case OpKind::shift: {
		const uint32_t second = q_.size() > 1 ? q_[1].len : 0;
		shift(op.n);
		if (opts_.explain && q_.size() < 2)
			rep.why = "nothing shifted: fewer than two skbs queued";
		else if (opts_.explain && (op.n == 0 || op.n > second))
			rep.why = fmt::format("nothing shifted: the second skb holds {} bytes", second);
		else if (opts_.explain && q_.size() > 1 && q_[1].len == second)
			rep.why = fmt::format("skb_shift refused: the head skb would need more than MAX_SKB_FRAGS ({}) frags",
					      sc_.cfg.max_skb_frags);
		break;
	}
	case OpKind::free:
		free_all();
		chk_.freed(wmem_);
		break;
	}
	chk_.socket(wmem_, ts_sum_);
	if (opts_.explain) {
		const size_t shown = std::min<size_t>(q_.size(), OpReport::kQueueSkbsShown);
		for (size_t i = 0; i < shown; ++i) {
			if (rep.queue.empty() || rep.queue.back().len != q_[i].len || rep.queue.back().truesize != q_[i].truesize)
				rep.queue.push_back({q_[i].len, q_[i].truesize, 0});
			++rep.queue.back().count;
		}
		rep.queue_rest = static_cast<uint32_t>(q_.size() - shown);
	}
	rep.wmem = static_cast<int32_t>(wmem_);
	rep.truesize_sum = ts_sum_;
	rep.queued = static_cast<uint32_t>(q_.size());
	return rep;
}

void Socket::wmem_add(int64_t delta) { wmem_ = wmem_ + static_cast<uint32_t>(delta); }

void Socket::set_truesize(Skb &s, uint64_t wide) {
	if (wide > UINT32_MAX)
		chk_.fail_with(Inv::tcp_truesize_no_wrap, [&] { return
			  fmt::format("skb truesize {} -> {} wraps the u32", s.truesize,
				      static_cast<int64_t>(wide)); });
	ts_sum_ -= s.truesize;
	s.truesize = static_cast<uint32_t>(wide);
	ts_sum_ += s.truesize;
}

// Every skb a send makes counts toward the scenario's limit: its report is
// kept, so the limit bounds the memory of the whole run.
Skb &Socket::new_skb(const Op &op) {
	if (++skbs_made_ > opts_.max_skbs)
		throw LimitError(limit_message(sc_.name, op.line, "send: the scenario's skb count", opts_.max_skbs));
	q_.push_back(Skb{});
	Skb &n = q_.back();
	set_truesize(n, sc_.cfg.skb_head_truesize);
	wmem_add(sc_.cfg.skb_head_truesize);
	return n;
}

void Socket::uncharge(const Skb &s) {
	wmem_add(-static_cast<int64_t>(s.truesize));
	ts_sum_ -= s.truesize;
}

// Skb @i leaves the queue: give back what the fill took for its frags.
void Socket::release_skb(size_t i) { release(q_[i], q_.frags_of(i)); }

// @frags: the skb's first frag; returns one past its last, where the next
// skb's start (a walk over the queue stays linear).
SkbQueue::FragIt Socket::release(const Skb &s, SkbQueue::FragIt frags) {
	for (uint32_t k = 0; k < s.nr_frags; ++k, ++frags)
		refs_.freed(frags->frag);
	uncharge(s);
	return frags;
}

void Socket::close() { free_all(); }

SkbReport Socket::report(const Skb &s, SkbQueue::FragIt frags) const {
	SkbReport r{s.len, s.truesize, {}};
	r.frags.reserve(s.nr_frags);
	for (uint32_t i = 0; i < s.nr_frags; ++i, ++frags)
		r.frags.push_back({frags->frag, frags->virt, frags->cut_by});
	return r;
}

// Folds an skb's frags into @h: their count and every field diff_traces
// compares per frag.  Each fold is a bijection of h for a given word (an odd
// multiplier, then a rotation that carries the high bits down for the next
// one), so sends that differ in one word never share a digest.  It is a
// third of splitmix64's latency per word, which was 6 % of a send input.
uint64_t Socket::digest(uint64_t h, const Skb &s, SkbQueue::FragIt frags) {
	const auto fold = [&h](uint64_t v) { h = std::rotl((h ^ v) * kGoldenGamma, 27); };
	fold(s.nr_frags);
	for (uint32_t i = 0; i < s.nr_frags; ++i, ++frags) {
		fold(frags->frag.niov);
		fold(uint64_t{frags->frag.off} << 32 | frags->frag.len);
		fold(frags->frag.truesize);
	}
	return h;
}

// Walk a copy of the iterator the way the fill did and check each new frag
// against the limits that applied when it was cut.
void Socket::check_new_frags(std::vector<QueuedFrag> &frags, uint32_t from, IovIter it, int32_t length) {
	const uint64_t n = uint64_t{1} << std::min(chk_.niov_shift(), 63u);
	const uint64_t dev_max = sc_.cfg.policy.max_frag == MaxFrag::device ? sc_.cfg.device_tx_max_frag() : UINT64_MAX;
	for (uint32_t i = from; i < frags.size(); ++i) {
		QueuedFrag &q = frags[i];
		const uint64_t virt = it.count ? iter_iov_addr(it) : 0;
		q.virt = virt;
		FragLimits lim;
		lim.niov_rem = n - (virt & (n - 1));
		lim.length = length > 0 ? static_cast<uint64_t>(length) : 0;
		lim.iov_rem = it.count ? iter_iov_len(it) : 0;
		lim.dev_max = dev_max;
		q.cut_by = chk_.frag(q.frag, virt, lim);
		iov_iter_advance(it, q.frag.len);
		length -= static_cast<int32_t>(q.frag.len);
	}
}

int64_t Socket::send(const Op &op, OpReport &rep) {
	if (!q_.empty())
		q_.back().closed = true;  // the previous send was pushed
	if (!usable_)
		return -kEINVAL;  // no TX binding: net_devmem_get_binding fails
	if (op.iov.size() > kUioMaxIov)
		return -kEINVAL;
	// import_iovec: negative lengths fail, the total is capped at MAX_RW_COUNT.
	auto &iov = iov_;
	iov.assign(op.iov.begin(), op.iov.end());
	uint64_t total = 0;
	const uint64_t cap = max_rw_count(sc_.cfg);
	for (auto &e : iov) {
		if (static_cast<int64_t>(e.len) < 0)
			return -kEINVAL;
		if (e.len > cap - total)
			e.len = cap - total;
		total += e.len;
	}
	if (op.length)
		total = std::min(total, *op.length);  // iov_iter_truncate
	IovIter it = iov_iter_init(iov, total);

	int64_t copied = 0;
	int err = 0;
	const size_t first_skb = q_.size();  // every send starts a new skb
	// A fill that moves neither bytes nor the iterator twice in a row will
	// never finish: a broken implementation, reported instead of spinning.
	unsigned stalls = 0;
	while (it.count != 0) {
		const bool reuse = q_.size() > first_skb && !q_.back().closed &&
				   q_.back().len < sc_.cfg.size_goal;
		if (!reuse && static_cast<int32_t>(wmem_) >= static_cast<int32_t>(kSndbuf)) {
			err = -kEAGAIN;	 // sk_stream_memory_free() fails: no room for an skb
			if (opts_.explain)
				rep.why = fmt::format("short: sk_wmem_queued {} reached sk_sndbuf {} after {} bytes", wmem_,
						      kSndbuf, copied);
			break;
		}
		Skb &skb = reuse ? q_.back() : new_skb(op);
		const uint64_t copy = std::min<uint64_t>(sc_.cfg.size_goal - skb.len, it.count);
		const uint32_t orig_len = skb.len, orig_ts = skb.truesize, orig_nr = skb.nr_frags;
		const IovIter before = it;

		// The fill writes a plain frag array with room for MAX_SKB_FRAGS.
		work_.clear();
		if (orig_nr) {	// most fills start a fresh skb: nothing to copy
			const auto f = q_.frags_of(q_.size() - 1);
			work_.assign(f, f + orig_nr);
		}
		for (uint32_t i = 0; i < orig_nr; ++i)
			fill_[i] = work_[i].frag;
		niov_skb view{fill_.data(), skb.nr_frags, skb.len, skb.truesize};
		const int e = impl_.fill(view, it, static_cast<int32_t>(copy));
		if (e != 0 && e != -kEMSGSIZE && e != -kEFAULT)
			chk_.fail_with(Inv::abi_fill_errno, [&] { return fmt::format(
				"fill returned {}: its contract is 0, -EMSGSIZE or -EFAULT", errno_name(e)); });
		if (view.nr_frags > sc_.cfg.max_skb_frags)
			chk_.fail_with(Inv::frag_count, [&] { return fmt::format("fill left {} frags, MAX_SKB_FRAGS {}",
							       view.nr_frags, sc_.cfg.max_skb_frags); });
		const uint32_t nr = std::min<uint32_t>(view.nr_frags, sc_.cfg.max_skb_frags);
		work_.resize(nr);
		for (uint32_t i = 0; i < nr; ++i)
			work_[i].frag = fill_[i];  // a fill may rewrite the frags it found, too
		for (uint32_t i = orig_nr; i < nr; ++i)
			refs_.taken(work_[i].frag);
		if (nr > orig_nr && (frags_made_ += nr - orig_nr) > opts_.max_frags) {
			q_.set_frags(q_.size() - 1, work_);  // so close() gives them back
			throw LimitError(limit_message(sc_.name, op.line, "send: the scenario's frag count",
						       opts_.max_frags));
		}
		skb.len = view.len;
		// The charge lands in sk_wmem_queued even when the fill fails.
		const uint32_t delta = view.truesize - orig_ts;
		set_truesize(skb, uint64_t{orig_ts} + delta);
		wmem_add(static_cast<int32_t>(delta));
		check_new_frags(work_, orig_nr, before, static_cast<int32_t>(copy));

		const bool no_bytes = skb.len == orig_len;
		const bool moved = it.count != before.count || it.iov != before.iov ||
				   it.iov_offset != before.iov_offset;
		stalls = moved || !no_bytes ? 0 : stalls + 1;
		if (stalls > 2) {
			q_.set_frags(q_.size() - 1, work_);
			chk_.fail(Inv::frag_progress, "sendmsg loop makes no progress");
			break;
		}
		if (e == -kEFAULT || (e == -kEMSGSIZE && no_bytes)) {
			if (opts_.explain && e == -kEFAULT)
				rep.why = fmt::format("{}: the fill failed -EFAULT at dmabuf offset {:#x} (dmabuf size {:#x}); "
						      "{} bytes it had put in this skb reverted (their truesize {} stays charged)",
						      copied ? "short" : "failed", it.count ? iter_iov_addr(it) : 0,
						      sc_.dmabuf_size, skb.len - orig_len, delta);
			// Revert the iterator and drop the new frags; their charge stays.
			iov_iter_revert(it, skb.len - orig_len, iov.data());
			for (uint32_t i = orig_nr; i < work_.size(); ++i)
				refs_.freed(work_[i].frag);
			work_.resize(orig_nr);
			q_.set_frags(q_.size() - 1, work_);
			skb.len = orig_len;
			if (e == -kEMSGSIZE) {
				skb.closed = true;  // tcp_mark_push, new segment
				continue;
			}
			err = e;
			break;
		}
		q_.set_frags(q_.size() - 1, work_);
		if (e == 0 && no_bytes && !moved && skb.nr_frags == orig_nr) {
			chk_.fail(Inv::frag_progress, "fill returned 0 without adding a frag");
			break;
		}
		copied += skb.len - orig_len;
		if (e == -kEMSGSIZE) {
			skb.closed = true;
		} else if (e != 0) {
			err = e;
			break;
		}
	}
	if (err && q_.size() > first_skb && q_.back().len == 0 && q_.back().nr_frags == 0) {
		release_skb(q_.size() - 1);  // tcp_remove_empty_skb
		q_.pop_back();
	}

	uint64_t added = 0;
	if (opts_.record_skbs)
		rep.skbs.reserve(q_.size() - first_skb);
	rep.skb_count = static_cast<uint32_t>(q_.size() - first_skb);
	auto frags = q_.frags_of(first_skb);
	for (size_t i = first_skb; i < q_.size(); ++i) {
		Skb &s = q_[i];
		chk_.skb(s, frags, true);
		s.closed = true;
		added += s.len;
		if (opts_.record_skbs)
			rep.skbs.push_back(report(s, frags));
		else if (opts_.digest_skbs)
			rep.skb_digest = digest(rep.skb_digest, s, frags);
		frags += s.nr_frags;
	}
	if (static_cast<int64_t>(added) != copied)
		chk_.fail_with(Inv::frag_bytes_accounted, [&] { return
			  fmt::format("send accepted {} bytes, its skbs hold {}", copied, added); });
	return copied ? copied : err;
}

void Socket::ack(uint64_t n) {
	while (n > 0 && !q_.empty()) {
		Skb &s = q_.front();
		if (s.len <= n) {
			n -= s.len;
			release_skb(0);
			q_.pop_front();
			continue;
		}
		// __pskb_trim_head: every frag no longer than what is left to eat goes.
		uint64_t eat = n;
		work_.clear();
		auto f = q_.frags_of(0);
		for (uint32_t i = 0; i < s.nr_frags; ++i, ++f) {
			QueuedFrag q = *f;
			if (q.frag.len <= eat) {
				eat -= q.frag.len;
				refs_.freed(q.frag);
				continue;
			}
			if (eat) {
				q.frag.off += static_cast<uint32_t>(eat);
				q.frag.len -= static_cast<uint32_t>(eat);
				q.virt += eat;
				eat = 0;
			}
			work_.push_back(q);
		}
		q_.set_frags(0, work_);
		rules::SkbAcct<W> a{s.len, s.truesize};
		const uint32_t len = static_cast<uint32_t>(n);
		if (a.truesize < len)
			chk_.fail_with(Inv::tcp_truesize_no_wrap, [&] { return
				  fmt::format("tcp_trim_head({}) on truesize {} wraps", len, a.truesize); });
		rules::trim_head<W>(a, wmem_, len);
		s.len = a.len;
		ts_sum_ -= s.truesize;
		s.truesize = a.truesize;
		ts_sum_ += s.truesize;
		chk_.skb(s, q_.frags_of(0), false);
		break;
	}
}

void Socket::split(uint64_t at) {
	if (q_.empty() || at == 0 || at >= q_.front().len)
		return;	 // tso_fragment is only called inside the skb
	// skb_split: frags ending at or before @at stay, a straddling one is cut.
	Skb &s = q_.front();
	work_.clear();
	moved_.clear();
	uint64_t pos = 0;
	auto f = q_.frags_of(0);
	for (uint32_t i = 0; i < s.nr_frags; ++i, ++f) {
		QueuedFrag q = *f;
		const uint64_t size = q.frag.len;
		if (pos + size > at) {
			QueuedFrag tail = q;
			if (pos < at) {
				const uint32_t head = static_cast<uint32_t>(at - pos);
				tail.frag.off += head;
				tail.frag.len -= head;
				tail.virt += head;
				q.frag.len = head;
				work_.push_back(q);
				refs_.cut(tail.frag);
			}
			if (moved_.size() < sc_.cfg.max_skb_frags)
				moved_.push_back(tail);
		} else {
			work_.push_back(q);
		}
		pos += size;
	}
	q_.set_frags(0, work_);
	rules::SkbAcct<W> a{s.len, s.truesize};
	const uint32_t nlen = s.len - static_cast<uint32_t>(at);
	if (a.truesize < nlen)
		chk_.fail_with(Inv::tcp_truesize_no_wrap, [&] { return
			  fmt::format("tso_fragment at {} moves {} bytes off truesize {}: wraps", at, nlen,
				      a.truesize); });
	const auto nb = rules::fragment<W>(a, wmem_, static_cast<uint32_t>(at), sc_.cfg.skb_head_truesize);
	ts_sum_ -= s.truesize;
	s.len = a.len;
	s.truesize = a.truesize;
	ts_sum_ += s.truesize;
	Skb b;
	b.len = nb.len;
	b.truesize = nb.truesize;
	b.closed = true;
	ts_sum_ += b.truesize;
	q_.insert_second(b, moved_);  // invalidates s
	chk_.skb(q_[0], q_.frags_of(0), false);
	chk_.skb(q_[1], q_.frags_of(1), false);
}

void Socket::shift(uint64_t n) {
	if (q_.size() < 2 || n == 0 || n > q_[1].len)
		return;
	Skb &to = q_[0];
	Skb &from = q_[1];
	// Build the result first: skb_shift refuses when frags would not fit.
	work_.assign(q_.frags_of(0), q_.frags_of(0) + to.nr_frags);
	moved_.clear();
	cuts_.clear();
	uint64_t todo = n;
	auto f = q_.frags_of(1);
	for (uint32_t i = 0; i < from.nr_frags; ++i, ++f) {
		QueuedFrag q = *f;
		if (todo > 0) {
			const uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(todo, q.frag.len));
			// Moved, never merged: skb_can_coalesce refuses zerocopy skbs,
			// and devmem TX frags never coalesce (RULES.md).
			QueuedFrag m = q;
			m.frag.len = take;
			work_.push_back(m);
			todo -= take;
			q.frag.off += take;
			q.frag.len -= take;
			q.virt += take;
			if (q.frag.len == 0)
				continue;
			cuts_.push_back(q.frag);
		}
		moved_.push_back(q);
	}
	if (work_.size() > sc_.cfg.max_skb_frags)
		return;
	for (const Frag &c : cuts_)
		refs_.cut(c);
	q_.set_frags(0, work_);
	q_.set_frags(1, moved_);

	rules::SkbAcct<W> a{to.len, to.truesize}, b{from.len, from.truesize};
	const uint32_t len = static_cast<uint32_t>(n);
	if (b.truesize < len || a.truesize + len < a.truesize)
		chk_.fail_with(Inv::tcp_truesize_no_wrap, [&] { return
			  fmt::format("skb_shift of {} bytes: truesize {} -> {} wraps", len, b.truesize,
				      a.truesize); });
	rules::shift<W>(a, b, len);
	ts_sum_ = ts_sum_ - to.truesize - from.truesize + a.truesize + b.truesize;
	to.len = a.len;
	to.truesize = a.truesize;
	from.len = b.len;
	from.truesize = b.truesize;
	chk_.skb(to, q_.frags_of(0), false);
	if (from.len == 0) {
		release_skb(1);
		q_.erase_second();
	} else {
		chk_.skb(from, q_.frags_of(1), false);
	}
}

void Socket::free_all() {
	auto f = q_.frags_of(0);
	for (size_t i = 0; i < q_.size(); ++i)
		f = release(q_[i], f);
	q_.clear();
}

}  // namespace niov
