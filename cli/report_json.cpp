#include "report_json.hpp"

#include <cctype>

#include <fmt/format.h>

namespace niov::cli {

namespace {

std::string_view op_name(OpKind k) {
	switch (k) {
	case OpKind::send: return "send";
	case OpKind::ack: return "ack";
	case OpKind::split: return "split";
	case OpKind::shift: return "shift";
	case OpKind::free: return "free";
	}
	return "?";
}

nlohmann::json violations_json(const std::vector<Violation> &vs) {
	auto a = nlohmann::json::array();
	for (const auto &v : vs)
		a.push_back({{"invariant", v.invariant}, {"step", v.step}, {"line", v.line},
			     {"source", v.source}, {"detail", v.detail}});
	return a;
}

nlohmann::json frag_json(const Frag &f) {
	return {{"niov", f.niov}, {"off", f.off}, {"len", f.len}, {"truesize", f.truesize}};
}

// A value as JSON: a number where it is one, else the text (errno names,
// "none").
nlohmann::json scalar(const std::string &s) {
	uint64_t v = 0;
	if (!s.empty() && s[0] != '-' && parse_number(s, v))
		return v;
	if (s.size() > 1 && s[0] == '-' && std::isdigit(static_cast<unsigned char>(s[1])))
		return std::stoll(s);
	return s;
}

const Frag *frag_at(const Trace &t, const Difference &d) {
	if (d.step == 0 || d.step > t.ops.size() || d.skb < 0 || d.frag < 0)
		return nullptr;
	const auto &skbs = t.ops[d.step - 1].skbs;
	if (static_cast<size_t>(d.skb) >= skbs.size() || static_cast<size_t>(d.frag) >= skbs[d.skb].frags.size())
		return nullptr;
	return &skbs[d.skb].frags[d.frag].frag;
}

const Frag *plugin_frag(const Trace &t, size_t op, size_t skb, size_t frag) {
	if (op >= t.ops.size() || skb >= t.ops[op].skbs.size() || frag >= t.ops[op].skbs[skb].frags.size())
		return nullptr;
	return &t.ops[op].skbs[skb].frags[frag].frag;
}

}  // namespace

std::string_view step_kind(const Scenario &sc, uint32_t step) {
	if (step == 0 || step > sc.ops.size())
		return "bind";
	return op_name(sc.ops[step - 1].kind);
}

nlohmann::json difference_json(const Difference &x, const RunReport &r, const Scenario &sc) {
	nlohmann::json j{{"step", x.step}, {"line", x.line}, {"op", step_kind(sc, x.step)}, {"field", x.field}};
	if (x.skb >= 0)
		j["skb"] = x.skb;
	if (x.frag >= 0)
		j["frag"] = x.frag;
	if (x.at)
		j[x.field == "niov_dma" ? "niov" : "offset"] = *x.at;
	const Frag *mf = r.impl ? frag_at(r.model, x) : nullptr;
	const Frag *pf = r.impl ? frag_at(*r.impl, x) : nullptr;
	if (x.field.rfind("frag.", 0) == 0 && mf && pf) {
		j["model"] = frag_json(*mf);
		j["impl"] = frag_json(*pf);
	} else {
		j["model"] = scalar(x.model);
		j["impl"] = scalar(x.impl);
	}
	return j;
}

nlohmann::json trace_json(const Trace &t) {
	nlohmann::json j;
	j["source"] = t.source;
	const bool ok = RunReport::bind_err(t) == 0;
	j["bind"] = {{"err", RunReport::bind_err(t)},
		     {"devmem_err", t.bind.err},
		     {"queue_err", t.queue_err},
		     {"niov_shift", ok ? t.bind.niov_shift : 0},
		     {"num_niovs", ok ? t.bind.num_niovs : 0},
		     {"pp_order", t.pp_order},
		     {"explain", t.explain}};
	auto sends = nlohmann::json::array();
	auto ops = nlohmann::json::array();
	for (size_t k = 0; k < t.ops.size(); ++k) {
		const auto &o = t.ops[k];
		nlohmann::json oj{{"step", k + 1}, {"line", o.line}, {"op", op_name(o.kind)},
				  {"sk_wmem_queued", o.wmem}, {"truesize_sum", o.truesize_sum},
				  {"skbs_queued", o.queued}};
		if (!o.why.empty())
			oj["why"] = o.why;
		if (!o.queue.empty()) {
			auto q = nlohmann::json::array();
			for (const auto &[len, ts] : o.queue)
				q.push_back({{"len", len}, {"truesize", ts}});
			oj["queue"] = std::move(q);
		}
		ops.push_back(std::move(oj));
		if (o.kind != OpKind::send)
			continue;
		nlohmann::json s;
		s["step"] = k + 1;
		s["line"] = o.line;
		s["err"] = o.result < 0 ? o.result : 0;
		s["bytes"] = o.result > 0 ? o.result : 0;
		auto skbs = nlohmann::json::array();
		for (const auto &sk : o.skbs) {
			auto frags = nlohmann::json::array();
			for (const auto &f : sk.frags) {
				nlohmann::json fj{{"niov", f.frag.niov}, {"off", f.frag.off}, {"len", f.frag.len},
						  {"truesize", f.frag.truesize}, {"virt", f.virt}};
				if (!f.cut_by.empty())
					fj["cut_by"] = f.cut_by;
				frags.push_back(std::move(fj));
			}
			skbs.push_back({{"len", sk.len}, {"truesize", sk.truesize}, {"frags", std::move(frags)}});
		}
		s["skbs"] = std::move(skbs);
		s["sk_wmem_queued"] = o.wmem;
		sends.push_back(std::move(s));
	}
	j["sends"] = std::move(sends);
	j["ops"] = std::move(ops);
	j["violations"] = violations_json(t.violations);
	return j;
}

nlohmann::json report_json(const RunReport &r, const Scenario &sc) {
	nlohmann::json j = trace_json(r.model);
	j["scenario"] = r.scenario;
	j["rules"] = std::string(name(sc.cfg.preset));
	j["policies"] = policies_string(sc.cfg.policy);
	auto all = j["violations"];
	if (r.impl) {
		j["impl"] = trace_json(*r.impl);
		for (const auto &v : violations_json(r.impl->violations))
			all.push_back(v);
	}
	j["violations"] = all;
	auto d = nlohmann::json::array();
	for (const auto &x : r.differences)
		d.push_back(difference_json(x, r, sc));
	j["differences"] = std::move(d);
	j["verdict"] = r.clean() ? "clean" : "violation";
	return j;
}

std::string report_text(const RunReport &r, const Scenario &sc, bool explain) {
	std::string out;
	const Trace &t = r.model;
	out += fmt::format("scenario {}: rules {} ({}), page_shift {}, device {}, dir {}\n", r.scenario,
			   name(sc.cfg.preset), policies_string(sc.cfg.policy), sc.cfg.page_shift,
			   name(sc.cfg.device), name(sc.dir));
	const int err = RunReport::bind_err(t);
	if (err)
		out += fmt::format("bind: {}\n", errno_name(err));
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
	for (size_t k = 0; k < t.ops.size(); ++k) {
		const auto &o = t.ops[k];
		const auto &op = sc.ops[k];
		if (o.kind == OpKind::send) {
			out += fmt::format("step {} (line {}): send -> {}\n", k + 1, o.line,
					   o.result < 0 ? std::string(errno_name(static_cast<int>(o.result)))
							: fmt::format("{} bytes", o.result));
			for (size_t s = 0; s < o.skbs.size(); ++s) {
				const auto &sk = o.skbs[s];
				out += fmt::format("  skb {}: len {} truesize {} frags {}\n", s, sk.len,
						   sk.truesize, sk.frags.size());
				for (size_t fi = 0; fi < sk.frags.size(); ++fi) {
					const auto &f = sk.frags[fi];
					out += fmt::format("    niov {} off {:#x} len {} truesize {} (dmabuf {:#x})",
							   f.frag.niov, f.frag.off, f.frag.len, f.frag.truesize,
							   f.virt);
					if (explain && !f.cut_by.empty())
						out += fmt::format("  cut by {}", f.cut_by);
					out += "\n";
					// The plugin's frag beside the model's where they differ.
					const Frag *pf = explain && r.impl ? plugin_frag(*r.impl, k, s, fi) : nullptr;
					if (pf && (pf->niov != f.frag.niov || pf->off != f.frag.off || pf->len != f.frag.len ||
						   pf->truesize != f.frag.truesize))
						out += fmt::format("    plugin: niov {} off {:#x} len {} truesize {}\n", pf->niov,
								   pf->off, pf->len, pf->truesize);
				}
			}
			if (explain && r.impl && k < r.impl->ops.size()) {
				const auto &po = r.impl->ops[k];
				if (po.result != o.result || po.skbs.size() != o.skbs.size())
					out += fmt::format("  plugin: send -> {}, {} skbs\n",
							   po.result < 0 ? std::string(errno_name(static_cast<int>(po.result)))
									 : fmt::format("{} bytes", po.result),
							   po.skbs.size());
				for (size_t s = o.skbs.size(); s < po.skbs.size(); ++s)
					out += fmt::format("  plugin skb {}: len {} truesize {} frags {}\n", s, po.skbs[s].len,
							   po.skbs[s].truesize, po.skbs[s].frags.size());
			}
		} else {
			out += fmt::format("step {} (line {}): {} {}\n", k + 1, o.line, op_name(o.kind),
					   op.kind == OpKind::free ? std::string() : std::to_string(op.n));
		}
		if (explain && !o.why.empty())
			out += fmt::format("  why: {}\n", o.why);
		if (explain && o.kind != OpKind::send)
			for (size_t s = 0; s < o.queue.size(); ++s)
				out += fmt::format("  skb {}: len {} truesize {}\n", s, o.queue[s].first, o.queue[s].second);
		out += fmt::format("  sk_wmem_queued {} (sum of truesize {}, {} skbs)\n", o.wmem,
				   o.truesize_sum, o.queued);
		if (explain && r.impl && k < r.impl->ops.size() && r.impl->ops[k].wmem != o.wmem)
			out += fmt::format("  plugin: sk_wmem_queued {}\n", r.impl->ops[k].wmem);
	}
	auto list = [&](const Trace &tr) {
		for (const auto &v : tr.violations)
			out += fmt::format("VIOLATION {} at step {} (line {}) [{}]: {}\n", v.invariant, v.step,
					   v.line, v.source, v.detail);
	};
	list(t);
	if (r.impl)
		list(*r.impl);
	for (const auto &d : r.differences)
		out += fmt::format("DIFFERENCE at step {} (line {}): {}: model {} / impl {}\n", d.step, d.line,
				   d.what, d.model, d.impl);
	out += fmt::format("verdict: {}\n", r.clean() ? "clean" : "VIOLATION");
	return out;
}

}  // namespace niov::cli
