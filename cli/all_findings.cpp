#include "all_findings.hpp"

#include "../kernel/tool/sanitizer_report.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "all_child.hpp"
#include "check_core.hpp"
#include "findings.hpp"
#include "plugin.hpp"
#include "report.hpp"
#include "report_json.hpp"

namespace niov::cli {

namespace {

constexpr unsigned kReplaySeconds = 120;

bool expected(const Scenario &sc, const std::string &inv) {
	return std::find(sc.expect_violations.begin(), sc.expect_violations.end(), inv) != sc.expect_violations.end();
}

// The scenario as the replay command runs it (cmd_replay's pinning).
Scenario as_replayed(const EngineInput &ctx, Scenario sc, bool model_only) {
	if (model_only)
		return sc;
	if (!ctx.rules.matches(sc)) {
		sc.expect_violations.clear();
		sc.expect_bind_err.reset();
	}
	ctx.rules.pin(sc);
	return sc;
}

// Within one step the answers follow from each other: the bind's decide the
// lookups, the lookups the frags, the frags the skb count, the bytes sent
// and the accounting.  The most upstream one that differs is the root.
int upstream_rank(const std::string &field) {
	static const std::vector<std::string> order{"bind.err",	  "bind.niov_shift", "bind.num_niovs", "bind.queue_err",
						    "get_niov_at", "niov_dma",	     "frag.niov",      "frag.off",
						    "frag.len",	   "frag.truesize",  "skb.frags",      "send.skbs",
						    "send.result", "sk_wmem_queued"};
	const auto it = std::find(order.begin(), order.end(), field);
	return static_cast<int>(it - order.begin());
}


// The kind of answer an invariant judges, to name the code that gave it.
std::string invariant_class(const std::string &inv) {
	if (inv.rfind("rx.alloc", 0) == 0)
		return "rx alloc";
	if (inv == "rx.pp_order")
		return "pp_init";
	if (inv.rfind("bind.", 0) == 0 || inv.rfind("sizing.", 0) == 0 || inv == "rx.shift_matches_attr")
		return "bind";
	if (inv.rfind("lookup.", 0) == 0)
		return "lookup";
	if (inv.rfind("frag.", 0) == 0 || inv.rfind("skb.", 0) == 0)
		return "frags";
	if (inv.rfind("tcp.", 0) == 0)
		return "truesize";
	return "";
}

// Kernel code says where each kind of answer comes from (ops->code_sites):
// the finding names the tree's function and line beside the model's step.
void point_into_code(nlohmann::json &j, const PluginImpl *impl, const std::string &answer_class) {
	const std::string site = impl && !answer_class.empty() ? impl->code_site(answer_class) : "";
	if (site.empty())
		return;
	j["code_site"] = site;
	j["title"] = j["title"].get<std::string>() + "; the code's answer comes from " + site;
}

const Difference &root_difference(const std::vector<Difference> &diffs) {
	const Difference *best = &diffs.front();
	for (const auto &d : diffs)
		if (d.step < best->step || (d.step == best->step && upstream_rank(d.field) < upstream_rank(best->field)))
			best = &d;
	return *best;
}

// In the child: replay @o's case and name its first event.
nlohmann::json cause_of_case(const EngineInput &ctx, const Observation &o) {
	auto parsed = load_scenario_file(o.scenario);
	if (!parsed.scenario)
		return {{"key", "unreadable case"}, {"title", parsed.error.message}};
	const Scenario sc = as_replayed(ctx, *parsed.scenario, o.model_only);
	std::unique_ptr<PluginImpl> impl;
	if (!o.model_only)
		impl = std::make_unique<PluginImpl>(ctx.plugin);
	const RunReport r = run_scenario(sc, impl.get());
	std::set<std::string> violates;
	const Violation *first = nullptr;
	bool first_in_model = false;
	for (const Trace *t : {&r.model, r.impl ? &*r.impl : nullptr}) {
		if (!t)
			continue;
		for (const auto &v : t->violations) {
			if (expected(sc, v.invariant) || is_known_finding(sc, v.invariant))
				continue;
			violates.insert(v.invariant);
			if (!first || v.step < first->step || (t == &r.model && v.step == first->step && !first_in_model)) {
				first = &v;
				first_in_model = t == &r.model;
			}
		}
	}
	nlohmann::json j{{"violates", violates}};
	// A plugin that broke the ABI's contract (a fill errno outside it, say)
	// makes every later difference a consequence: the breach is the root.
	const Violation *breach = nullptr;
	if (r.impl)
		for (const auto &v : r.impl->violations)
			if (v.invariant.rfind("abi.", 0) == 0 && (!breach || v.step < breach->step))
				breach = &v;
	const bool breach_is_root =
		breach && (r.differences.empty() || breach->step <= root_difference(r.differences).step);
	if (breach_is_root) {
		first = breach;
		first_in_model = false;
	}
	if (!r.differences.empty() && !breach_is_root) {
		const Difference &d = root_difference(r.differences);
		const std::string_view op = step_kind(sc, d.step);
		j["key"] = fmt::format("difference {} at {}", answer_class(d.field), op);
		j["field"] = d.field;
		j["title"] = fmt::format("the plugin's {} differs from the model's at {} (step {}, line {}): model {}, plugin {}",
					 d.what, op, d.step, d.line, d.model, d.impl);
		j["model"] = d.model;
		j["impl"] = d.impl;
		point_into_code(j, impl.get(), answer_class(d.field));
	} else if (first) {
		const std::string_view op = step_kind(sc, first->step);
		const char *who = first_in_model ? "the rules in force" : "the plugin";
		j["key"] = fmt::format("{} violate {} at {}", first_in_model ? "rules" : "plugin", first->invariant, op);
		j["title"] = fmt::format("{} violate {} at {} (step {}, line {}): {}", who, first->invariant, op,
					 first->step, first->line, first->detail);
		if (!first_in_model)
			point_into_code(j, impl.get(), invariant_class(first->invariant));
	} else if (!o.model_only && !judge(sc, r).as_expected) {
		j["key"] = "expectation " + o.scenario;
		j["title"] = fmt::format("{}: {}", o.scenario, judge(sc, r).note);
	} else {
		// Clean now: the engine's failure did not come from the case alone.
		j["key"] = fmt::format("{} {} (case replays clean)", o.engine, o.invariant);
		j["title"] = fmt::format("{} {}: {} (its case {} replays clean)", o.engine, o.what, o.detail, o.scenario);
	}
	return j;
}

// A sanitizer's stop, keyed by what fired and where in the tree's code (the
// replay of a case, a property, a fuzz target and the engine itself all
// name the same one).
std::optional<nlohmann::json> sanitizer_cause(const Observation &o, const ChildOutcome *died) {
	std::optional<kernel::SanitizerFinding> f;
	if (died)
		f = kernel::parse_sanitizer_report(died->log);
	std::string line = f ? f->one_line() : "";
	if (line.empty() && (o.invariant == "sanitizer" || o.invariant == "plugin.sanitizer"))
		line = o.detail;
	if (line.empty())
		return std::nullopt;
	const size_t at = line.find(" at ");
	return nlohmann::json{{"key", "sanitizer " + (at == std::string::npos ? line : line.substr(0, at))},
			      {"title", fmt::format("{} ({} {})", line, o.engine, o.what)}};
}

// Where the engine gave no case, or the case's replay died.  One key per
// way of dying, whichever engine saw it: "plugin hung", "plugin exited",
// "plugin crashed SIGSEGV", "plugin breaks abi.null_binding", and for a
// plugin that dies in its constructors or niov_impl_get "plugin dies
// while loading (plugin.signal)".
nlohmann::json cause_from_engine(const Observation &o, const ChildOutcome *died) {
	if (auto s = sanitizer_cause(o, died))
		return *s;
	if (o.engine == "load")
		return {{"key", fmt::format("plugin dies while loading ({})", o.invariant)},
			{"title", fmt::format("the plugin died while being loaded: {}", o.detail)}};
	if (died && (died->hung_call || died->timed_out))
		return {{"key", "plugin hung"},
			{"title", fmt::format("the plugin did not return{} ({})", died->op.empty() ? "" : " from " + died->op,
					      o.what)}};
	if (died && died->fault_id == "plugin.exit")
		return {{"key", "plugin exited"}, {"title", fmt::format("the plugin {} ({})", died->fault, o.what)}};
	if (died && !died->fault_id.empty() && !died->signal)
		return {{"key", "plugin breaks " + died->fault_id}, {"title", fmt::format("{} ({})", died->fault, o.what)}};
	if (died && died->signal)
		return {{"key", "plugin crashed " + signal_name(died->signal)},
			{"title", fmt::format("the plugin crashed with {}{} ({})", signal_name(died->signal),
					      died->op.empty() ? "" : " in " + died->op, o.what)}};
	if (died)
		return {{"key", "plugin exited"},
			{"title", fmt::format("the process exited with status {} without finishing ({})", died->exit_code, o.what)}};
	if (o.invariant == "hang")
		return {{"key", "plugin hung"}, {"title", fmt::format("{} {}: {}", o.engine, o.what, o.detail)}};
	if (o.invariant == "exit")
		return {{"key", "plugin exited"}, {"title", fmt::format("{} {}: {}", o.engine, o.what, o.detail)}};
	if (o.invariant == "crash" || o.signal)
		return {{"key", o.signal ? "plugin crashed " + signal_name(o.signal) : "plugin crashed"},
			{"title", fmt::format("the plugin crashed during {} {}: {}", o.engine, o.what, o.detail)}};
	if (o.invariant.rfind("abi.", 0) == 0)
		return {{"key", "plugin breaks " + o.invariant}, {"title", fmt::format("{} {}: {}", o.engine, o.what, o.detail)}};
	return {{"key", fmt::format("{} {}", o.engine, o.invariant)}, {"title", fmt::format("{} {}: {}", o.engine, o.what, o.detail)}};
}

// A known bug of the era's rules, shown by a shipped scenario that expects
// it: one finding for all of them, named after what the era lacks.
nlohmann::json known_bug_cause(const EngineInput &ctx, const Observation &o) {
	std::vector<std::string> invs;
	std::istringstream words(o.invariant.substr(kKnownBugPrefix.size()));
	for (std::string w; words >> w;)
		invs.push_back(w);
	return {{"key", fmt::format("known bug of {}: the gen_pool bind without the May 2026 size/sg-length checks",
				    name(ctx.rules.preset))},
		{"title", fmt::format("the code takes a dmabuf or sg entries that are not whole pages (what the May 2026 fix "
				      "refuses), as the rules {} say it does: {}",
				      name(ctx.rules.preset), o.detail)},
		{"violates", invs}};
}

int engine_rank(const std::string &e) {
	static const std::vector<std::string> order{"replay", "props", "fuzz", "proof", "faults"};
	const auto it = std::find(order.begin(), order.end(), e);
	return static_cast<int>(it - order.begin());
}

}  // namespace

std::vector<Finding> group_findings(const EngineInput &ctx, const std::vector<EngineResult> &engines) {
	std::map<std::string, Finding> by_key;
	std::vector<std::string> order;
	unsigned n = 0;
	for (const auto &e : engines) {
		for (const auto &o : e.observations) {
			nlohmann::json cause;
			if (o.invariant.starts_with(kKnownBugPrefix)) {
				cause = known_bug_cause(ctx, o);
			} else if (!o.scenario.empty() && o.invariant != "hang") {	// a hang would only hang again
				const ChildOutcome c = run_in_child([&](const Progress &) { return cause_of_case(ctx, o); },
								    {kReplaySeconds, ctx.limits.op_seconds},
								    ctx.work + "/causes", fmt::format("case-{}", n++));
				cause = c.completed ? c.result : cause_from_engine(o, &c);
			} else {
				cause = cause_from_engine(o, nullptr);
			}
			const std::string key = cause.value("key", "?");
			auto [it, fresh] = by_key.try_emplace(key);
			Finding &f = it->second;
			if (fresh) {
				order.push_back(key);
				f.key = key;
				f.title = cause.value("title", "");
				f.model = cause.value("model", "");
				f.impl = cause.value("impl", "");
				f.known_bug = o.invariant.starts_with(kKnownBugPrefix);
			}
			for (const auto &v : cause.value("violates", nlohmann::json::array()))
				if (std::find(f.violates.begin(), f.violates.end(), v.get<std::string>()) == f.violates.end())
					f.violates.push_back(v.get<std::string>());
			f.seen_by.push_back(o);
			// One replay command: a shipped scenario first (a person knows
			// it), then a shrunk property case, a fuzz case, a proof's.
			const bool better = f.replay.empty() ||
					    (!o.scenario.empty() && (f.scenario.empty() || engine_rank(o.engine) < engine_rank(f.seen_by.front().engine)));
			if (better && !o.replay.empty()) {
				f.replay = o.replay;
				f.scenario = o.scenario;
			}
		}
	}
	std::vector<Finding> out;
	for (const auto &k : order)
		out.push_back(std::move(by_key[k]));
	for (auto &f : out)
		std::stable_sort(f.seen_by.begin(), f.seen_by.end(),
				 [](const Observation &a, const Observation &b) { return engine_rank(a.engine) < engine_rank(b.engine); });
	return out;
}

void check_replays(const EngineInput &ctx, std::vector<Finding> &findings) {
	unsigned n = 0;
	for (auto &f : findings) {
		if (f.replay.empty())
			continue;
		const std::string cmd = f.replay;
		const ChildOutcome c = run_in_child(
			[&cmd](const Progress &) {
				const int status = std::system((cmd + " >/dev/null 2>&1").c_str());
				const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
				return nlohmann::json{{"code", code}};
			},
			{kReplaySeconds, 0}, ctx.work + "/replays", fmt::format("replay-{}", n++));
		if (c.interrupted)
			return;
		f.replay_checked = true;
		const bool crash = f.key.rfind("plugin crashed", 0) == 0, hang = f.key == "plugin hung";
		if (!c.completed) {
			f.replay_reproduces = hang && c.timed_out;
			f.replay_note = c.timed_out ? "the replay did not finish" : "the replay check itself failed";
			continue;
		}
		const int code = c.result.value("code", -1);
		// niovcheck's replay runs the plugin in a worker and reports a crash
		// as a finding (exit 1); a fuzz target's replay dies of it, which
		// the shell reports as 128 + the signal.  A known bug's scenario
		// expects it: its replay shows it and exits 0.
		f.replay_reproduces = crash ? code == 1 || code > 128 : code == (f.known_bug ? 0 : 1);
		if (!f.replay_reproduces)
			f.replay_note = fmt::format("the replay command exited {}, not {}", code,
						    crash ? "1 or with the crash" : f.known_bug ? "0" : "1");
	}
}

}  // namespace niov::cli
