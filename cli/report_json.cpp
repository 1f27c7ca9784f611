#include "report_json.hpp"

#include <cctype>

#include <fmt/format.h>

#include "json_writer.hpp"

namespace niov::cli {

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

namespace {

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

void violations(JsonWriter &w, const std::vector<Violation> &vs) {
	for (const auto &v : vs)
		w.value({{"invariant", v.invariant}, {"step", v.step}, {"line", v.line}, {"source", v.source},
			 {"detail", v.detail}});
}

void send(JsonWriter &w, size_t step, const OpReport &o) {
	w.begin_object();
	w.field("step", step).field("line", o.line);
	w.field("err", o.result < 0 ? o.result : 0).field("bytes", o.result > 0 ? o.result : 0);
	w.key("skbs").begin_array();
	for (const auto &sk : o.skbs) {
		w.begin_object().field("len", sk.len).field("truesize", sk.truesize);
		w.key("frags").begin_array();
		for (const auto &f : sk.frags) {
			nlohmann::json fj{{"niov", f.frag.niov}, {"off", f.frag.off}, {"len", f.frag.len},
					  {"truesize", f.frag.truesize}, {"virt", f.virt}};
			if (f.cut_by != CutBy::none)
				fj["cut_by"] = std::string(name(f.cut_by));
			w.value(fj);
		}
		w.end_array().end_object();
	}
	w.end_array();
	w.field("sk_wmem_queued", o.wmem);
	w.end_object();
}

nlohmann::json resources_json(const niov_resources &r) {
	return {{"allocs", r.allocs},	      {"alloc_bytes", r.alloc_bytes}, {"dmabuf_refs", r.dmabuf_refs},
		{"dma_mappings", r.dma_mappings}, {"binding_refs", r.binding_refs}, {"niov_refs", r.niov_refs},
		{"warns", r.warns},	      {"bugs", r.bugs}};
}

nlohmann::json rx_alloc_json(const RxAllocReport &a) {
	auto rounds = nlohmann::json::array();
	for (const auto &r : a.rounds)
		rounds.push_back({{"handed", r.handed}, {"failed", r.failed}});
	return {{"rounds", rounds}, {"niovs", a.niovs.size()}, {"same_again", a.same_again}};
}

// The fields of one trace, inside an open object.
void trace_fields(JsonWriter &w, const Trace &t, bool with_violations) {
	w.field("source", t.source);
	w.field("ran", t.ran);
	w.field("not_run", t.not_run);
	const bool ok = RunReport::bind_err(t) == 0;
	w.field("bind", {{"err", RunReport::bind_err(t)},
			 {"devmem_err", t.bind.err},
			 {"queue_err", t.queue_err},
			 {"not_representable", t.bind.not_representable()},
			 {"extack", t.bind.extack},
			 {"niov_shift", ok ? t.bind.niov_shift : 0},
			 {"num_niovs", ok ? t.bind.num_niovs : 0},
			 {"pp_order", t.pp_order},
			 {"explain", t.explain}});
	if (t.rx_alloc.ran)
		w.field("rx_alloc", rx_alloc_json(t.rx_alloc));
	if (t.res_before && t.res_after)
		w.field("resources", {{"before", resources_json(*t.res_before)}, {"after", resources_json(*t.res_after)}});
	w.key("sends").begin_array();
	for (size_t k = 0; k < t.ops.size(); ++k)
		if (t.ops[k].kind == OpKind::send)
			send(w, k + 1, t.ops[k]);
	w.end_array();
	w.key("ops").begin_array();
	for (size_t k = 0; k < t.ops.size(); ++k) {
		const auto &o = t.ops[k];
		nlohmann::json oj{{"step", k + 1}, {"line", o.line}, {"op", std::string(op_name(o.kind))},
				  {"sk_wmem_queued", o.wmem}, {"truesize_sum", o.truesize_sum}, {"skbs_queued", o.queued}};
		if (!o.why.empty())
			oj["why"] = o.why;
		if (!o.queue.empty()) {
			auto q = nlohmann::json::array();
			for (const auto &run : o.queue)
				q.push_back({{"len", run.len}, {"truesize", run.truesize}, {"count", run.count}});
			oj["queue"] = std::move(q);
			if (o.queue_rest)
				oj["queue_more_skbs"] = o.queue_rest;
		}
		w.value(oj);
	}
	w.end_array();
	if (with_violations) {
		w.key("violations").begin_array();
		violations(w, t.violations);
		w.end_array();
	}
}

}  // namespace

const Frag *plugin_frag(const Trace &t, size_t op, size_t skb, size_t frag) {
	if (op >= t.ops.size() || skb >= t.ops[op].skbs.size() || frag >= t.ops[op].skbs[skb].frags.size())
		return nullptr;
	return &t.ops[op].skbs[skb].frags[frag].frag;
}

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

std::string bind_text(const Trace &t) {
	const int err = RunReport::bind_err(t);
	std::string s(errno_name(err));
	if (err && !t.bind.extack.empty())
		s += fmt::format(" (extack: \"{}\")", t.bind.extack);
	return s;
}

void write_report_json(JsonWriter &w, const RunReport &r, const Scenario &sc) {
	w.begin_object();
	w.field("scenario", r.scenario);
	w.field("rules", std::string(name(sc.cfg.preset)));
	w.field("policies", policies_string(sc.cfg.policy));
	trace_fields(w, r.model, false);
	if (r.impl) {
		w.key("impl").begin_object();
		trace_fields(w, *r.impl, true);
		w.end_object();
	}
	// Every violation, the model's and the plugin's.
	w.key("violations").begin_array();
	violations(w, r.model.violations);
	if (r.impl)
		violations(w, r.impl->violations);
	w.end_array();
	w.key("differences").begin_array();
	for (const auto &x : r.differences)
		w.value(difference_json(x, r, sc));
	w.end_array();
	w.field("verdict", r.verdict());
	w.end_object();
}

nlohmann::json report_json(const RunReport &r, const Scenario &sc) {
	std::string text;
	{
		JsonWriter w(text);
		write_report_json(w, r, sc);
	}
	return nlohmann::json::parse(text);
}

}  // namespace niov::cli
