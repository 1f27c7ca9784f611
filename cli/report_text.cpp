// The person-readable replay / explain text.  A person reads a few screens,
// not a million frags: unless --verbose, runs of frags that continue each
// other, runs of skbs of one shape and runs of operations that came out
// alike are each printed once with a count (--json keeps every detail).
#include <fmt/format.h>

#include "report_json.hpp"

namespace niov::cli {

namespace {

// Past this many skb groups (or frag groups in one skb) the rest of a send
// (or skb) is one line.
constexpr size_t kShownGroups = 8;
// The longest cycle of operations folded into one line (send, ack, split...).
constexpr size_t kLongestCycle = 4;

// Frag b carries on where a stopped, cut the same way.
bool continues(const FragReport &a, const FragReport &b) {
	return a.frag.len == b.frag.len && a.frag.truesize == b.frag.truesize && a.cut_by == b.cut_by &&
	       b.virt == a.virt + a.frag.len;
}

bool same_shape(const SkbReport &a, const SkbReport &b) {
	if (a.len != b.len || a.truesize != b.truesize || a.frags.size() != b.frags.size())
		return false;
	for (size_t i = 0; i < a.frags.size(); ++i)
		if (a.frags[i].frag.len != b.frags[i].frag.len)
			return false;
	return true;
}

// Two operations a reader need not see twice: same kind and argument, and
// for sends the same result and skb shapes.  (Steps with a violation or a
// difference are never folded into a run: report_text checks.)
bool alike(const Op &oa, const OpReport &a, const Op &ob, const OpReport &b) {
	if (a.kind != b.kind || oa.n != ob.n || a.result != b.result || a.skbs.size() != b.skbs.size())
		return false;
	for (size_t i = 0; i < a.skbs.size(); ++i)
		if (!same_shape(a.skbs[i], b.skbs[i]))
			return false;
	return true;
}

class Text {
public:
	// @plugin: the plugin's trace, whose frags explain shows beside the
	// model's where they differ.
	Text(std::string &out, bool explain, bool verbose, const Trace *plugin)
		: out_(out), explain_(explain), verbose_(verbose), plugin_(explain ? plugin : nullptr) {}

	void frags(const std::vector<FragReport> &fs, size_t op, size_t skb) {
		size_t groups = 0;
		for (size_t i = 0; i < fs.size();) {
			size_t j = i + 1;
			while (!verbose_ && j < fs.size() && continues(fs[j - 1], fs[j]))
				++j;
			if (!verbose_ && ++groups > kShownGroups) {
				out_ += fmt::format("    ... {} more frags (--verbose or --json for each)\n", fs.size() - i);
				return;
			}
			frag(fs[i], plugin_ ? plugin_frag(*plugin_, op, skb, i) : nullptr);
			if (j - i > 1)
				out_ += fmt::format("    ... and {} more like it, each continuing the last, to niov {} off "
						    "{:#x} (dmabuf {:#x})\n",
						    j - i - 1, fs[j - 1].frag.niov, fs[j - 1].frag.off, fs[j - 1].virt);
			i = j;
		}
	}

	void skbs(const std::vector<SkbReport> &ss, size_t op) {
		size_t groups = 0;
		for (size_t s = 0; s < ss.size();) {
			size_t t = s + 1;
			while (!verbose_ && t < ss.size() && same_shape(ss[s], ss[t]))
				++t;
			if (!verbose_ && ++groups > kShownGroups) {
				uint64_t bytes = 0;
				for (size_t k = s; k < ss.size(); ++k)
					bytes += ss[k].len;
				out_ += fmt::format("  ... skbs {}..{}: {} bytes (--verbose or --json for each)\n", s,
						    ss.size() - 1, bytes);
				return;
			}
			const auto &sk = ss[s];
			out_ += fmt::format("  skb {}: len {} truesize {} frags {}\n", s, sk.len, sk.truesize,
					    sk.frags.size());
			frags(sk.frags, op, s);
			if (t - s > 1)
				out_ += fmt::format("  skbs {}..{}: {} more of the same shape (len, truesize, frag lengths)\n",
						    s + 1, t - 1, t - s - 1);
			s = t;
		}
	}

private:
	void frag(const FragReport &f, const Frag *pf) {
		out_ += fmt::format("    niov {} off {:#x} len {} truesize {} (dmabuf {:#x})", f.frag.niov, f.frag.off,
				    f.frag.len, f.frag.truesize, f.virt);
		if (explain_ && f.cut_by != CutBy::none)
			out_ += fmt::format("  cut by {}", name(f.cut_by));
		out_ += "\n";
		if (pf && (pf->niov != f.frag.niov || pf->off != f.frag.off || pf->len != f.frag.len ||
			   pf->truesize != f.frag.truesize))
			out_ += fmt::format("    plugin: niov {} off {:#x} len {} truesize {}\n", pf->niov, pf->off,
					    pf->len, pf->truesize);
	}

	std::string &out_;
	bool explain_, verbose_;
	const Trace *plugin_;
};

}  // namespace

std::string report_text(const RunReport &r, const Scenario &sc, bool explain, bool verbose) {
	std::string out;
	const Trace &t = r.model;
	out += fmt::format("scenario {}: rules {} ({}), page_shift {}, device {}, dir {}\n", r.scenario,
			   name(sc.cfg.preset), policies_string(sc.cfg.policy), sc.cfg.page_shift,
			   name(sc.cfg.device), name(sc.dir));
	const int err = RunReport::bind_err(t);
	if (err)
		out += fmt::format("bind: {}\n", bind_text(t));
	else
		out += fmt::format("bind: ok, niov_shift {} ({} bytes), {} niovs{}\n", t.bind.niov_shift,
				   uint64_t{1} << t.bind.niov_shift, t.bind.num_niovs,
				   sc.dir == Dir::tx ? "" : fmt::format(", page_pool order {}", t.pp_order));
	if (explain && !t.explain.empty())
		out += fmt::format("  why: {}\n", t.explain);
	if (explain && r.impl && !(r.impl->bind == t.bind && r.impl->queue_err == t.queue_err)) {
		const Trace &p = *r.impl;
		const int perr = RunReport::bind_err(p);
		out += perr ? fmt::format("  plugin: bind {}\n", errno_name(perr))
			    : fmt::format("  plugin: bind ok, niov_shift {}, {} niovs\n", p.bind.niov_shift, p.bind.num_niovs);
	}
	Text text(out, explain, verbose, r.impl ? &*r.impl : nullptr);
	std::vector<bool> flagged(t.ops.size() + 1, false);
	auto flag = [&](uint32_t step) {
		if (step < flagged.size())
			flagged[step] = true;
	};
	for (const auto &v : t.violations)
		flag(v.step);
	if (r.impl)
		for (const auto &v : r.impl->violations)
			flag(v.step);
	for (const auto &d : r.differences)
		flag(d.step);
	auto accounting = [&](const OpReport &o) {
		out += fmt::format("  sk_wmem_queued {} (sum of truesize {}, {} skbs)\n", o.wmem, o.truesize_sum,
				   o.queued);
	};
	// explain: why the step came out so, the queue after it, and the
	// plugin's side where it differs.
	auto explained = [&](size_t k) {
		const auto &o = t.ops[k];
		const OpReport *po = r.impl && k < r.impl->ops.size() ? &r.impl->ops[k] : nullptr;
		if (o.kind == OpKind::send && po) {
			if (po->result != o.result || po->skbs.size() != o.skbs.size())
				out += fmt::format("  plugin: send -> {}, {} skbs\n",
						   po->result < 0 ? std::string(errno_name(static_cast<int>(po->result)))
								  : fmt::format("{} bytes", po->result),
						   po->skbs.size());
			for (size_t s = o.skbs.size(); s < po->skbs.size(); ++s)
				out += fmt::format("  plugin skb {}: len {} truesize {} frags {}\n", s, po->skbs[s].len,
						   po->skbs[s].truesize, po->skbs[s].frags.size());
		}
		if (!o.why.empty())
			out += fmt::format("  why: {}\n", o.why);
		if (o.kind != OpKind::send) {
			size_t s = 0;
			for (const auto &run : o.queue) {
				if (run.count == 1)
					out += fmt::format("  skb {}: len {} truesize {}\n", s, run.len, run.truesize);
				else
					out += fmt::format("  skbs {}..{}: len {} truesize {} each\n", s, s + run.count - 1,
							   run.len, run.truesize);
				s += run.count;
			}
			if (o.queue_rest)
				out += fmt::format("  ... {} more skbs (sk_wmem_queued below counts them)\n", o.queue_rest);
		}
		if (po && po->wmem != o.wmem)
			out += fmt::format("  plugin: sk_wmem_queued {}\n", po->wmem);
	};
	auto show = [&](size_t k) {
		const auto &o = t.ops[k];
		const auto &op = sc.ops[k];
		if (o.kind == OpKind::send) {
			out += fmt::format("step {} (line {}): send -> {}\n", k + 1, o.line,
					   o.result < 0 ? std::string(errno_name(static_cast<int>(o.result)))
							: fmt::format("{} bytes", o.result));
			text.skbs(o.skbs, k);
		} else {
			out += fmt::format("step {} (line {}): {} {}\n", k + 1, o.line, op_name(o.kind),
					   op.kind == OpKind::free ? std::string() : std::to_string(op.n));
		}
		if (explain)
			explained(k);
		accounting(o);
	};
	// How many ops from @k + @period on repeat the one @period before them
	// (unflagged, alike), in whole periods.
	auto repeats = [&](size_t k, size_t period) {
		size_t j = k + period;
		while (j < t.ops.size() && !flagged[j + 1] && !flagged[j + 1 - period] &&
		       alike(sc.ops[j - period], t.ops[j - period], sc.ops[j], t.ops[j]))
			++j;
		return (j - k - period) / period;
	};
	for (size_t k = 0; k < t.ops.size();) {
		// A run of one operation, or of a short cycle (send, ack, send,
		// ack...), is shown once with its count unless --verbose.
		size_t period = 1, reps = 0;
		for (size_t p = 1; !verbose && p <= kLongestCycle && k + p <= t.ops.size(); ++p) {
			const size_t n = repeats(k, p);
			if (n * p > reps * period) {
				period = p;
				reps = n;
			}
		}
		for (size_t i = k; i < k + period; ++i)
			show(i);
		k += period;
		if (reps == 0)
			continue;
		const size_t last = k + reps * period;  // one past the run
		if (period == 1)
			out += fmt::format("steps {}..{} (lines {}..{}): {} more {}s like step {}\n", k + 1, last,
					   t.ops[k].line, t.ops[last - 1].line, reps, op_name(t.ops[k].kind), k);
		else
			out += fmt::format("steps {}..{} (lines {}..{}): {} more repetitions of steps {}..{}\n", k + 1,
					   last, t.ops[k].line, t.ops[last - 1].line, reps, k - period + 1, k);
		accounting(t.ops[last - 1]);
		k = last;
	}
	if (t.rx_alloc.ran)
		out += fmt::format("RX allocator: {} of {} niovs handed out, {} again after freeing them\n",
				   t.rx_alloc.rounds[0].handed, t.bind.num_niovs, t.rx_alloc.rounds[1].handed);
	if (r.impl) {
		const Trace &i = *r.impl;
		if (i.bind.not_representable())
			out += fmt::format("impl {}: not representable (the code cannot take this input): not compared\n",
					   i.source);
		else if (i.ran && RunReport::bind_err(i) != err)
			out += fmt::format("impl {} bind: {}\n", i.source, bind_text(i));
		else if (i.ran && err && !i.bind.extack.empty())
			out += fmt::format("impl {} extack: \"{}\"\n", i.source, i.bind.extack);
		for (const auto &n : i.not_run)
			out += fmt::format("impl {}: not run: {}\n", i.source, n);
	}
	auto list = [&](const Trace &tr) {
		for (const auto &v : tr.violations)
			out += fmt::format("VIOLATION {} at step {} (line {}) [{}]: {}\n", v.invariant, v.step,
					   v.line, v.source, v.detail);
	};
	list(t);
	if (r.impl)
		list(*r.impl);
	for (const auto &d : r.differences) {
		out += fmt::format("DIFFERENCE at step {} (line {}): {}: model {} / impl {}\n", d.step, d.line,
				   d.what, d.model, d.impl);
		if (const std::string site = r.impl ? code_site(r.impl->code_sites, answer_class(d.field)) : "";
		    !site.empty())
			out += fmt::format("  the code's answer: {}\n", site);
	}
	const std::string v = r.verdict();
	out += fmt::format("verdict: {}\n", v == "violation" ? "VIOLATION" : v);
	return out;
}

}  // namespace niov::cli
