// Engine "props": the RapidCheck properties against the plugin, each with
// the budget's cases.
#include <chrono>

#include <fmt/format.h>

#include "engines/engine.hpp"
#include "plugin_load.hpp"
#include "props_isolated.hpp"
#include "runner.hpp"
#include "target.hpp"
#include "work_dir.hpp"

namespace niov::cli {

// Its parts, named after it: a unity build compiles the engines as one file.
namespace props_parts {

using Clock = std::chrono::steady_clock;

// The command that runs one property again with the run's seed and cases.
std::string property_replay(const EngineInput &in, const std::string &property) {
	return fmt::format("{} props --impl {} {} --property {} --seed {} --cases {}", in.niovcheck, in.plugin,
			   in.rules.flags(), property, in.req.seed, in.cases);
}

props::RunParams params(const EngineInput &in, const std::string &tag) {
	props::RunParams rp;
	if (in.cases)
		rp.cases = in.cases;
	rp.seed = in.req.seed;
	rp.failure_dir = in.work;
	rp.niovcheck = in.niovcheck;
	rp.rules_flags = in.rules.flags();
	rp.tag = safe_component(tag);  // a file name part: never a path a plugin chose
	return rp;
}

EngineResult run(const EngineInput &in, const Progress &p) {
	using namespace niov::props;
	EngineResult r;
	r.name = "props";
	const auto t0 = Clock::now();
	const LoadedTarget lt = load_target(in.plugin, "", in.request);
	RunParams rp = params(in, in.plugin_name);
	rp.failure_dir = in.work + "/props";
	unsigned failed = 0, not_run = 0;
	const auto &all = all_properties();
	uint64_t done = 0;
	for (const auto &prop : all) {
		p.count(done++, all.size());
		if (in.skip.count("property " + prop.name))
			continue;
		p.at("property " + prop.name);
		const Outcome o = run_property(prop, lt.target, rp);
		if (!o.not_run.empty()) {  // the plugin lacks the path: neither a pass nor a finding
			++not_run;
			r.items.push_back({prop.name, EngineStatus::not_run, o.not_run});
			continue;
		}
		r.items.push_back({prop.name, o.passed ? EngineStatus::ok : EngineStatus::finding,
				   o.passed ? "" : (o.description.empty() ? o.message : o.description)});
		if (o.passed)
			continue;
		++failed;
		Observation ob;
		ob.engine = "props";
		ob.what = prop.name;
		ob.invariant = prop.name == "diff.model_vs_impl" ? "difference" : prop.name;
		ob.detail = o.description.empty() ? o.message : o.description;
		ob.scenario = o.scenario_file;
		ob.replay = !o.replay.empty() ? o.replay : property_replay(in, prop.name);
		r.observations.push_back(std::move(ob));
	}
	r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
	r.runs = fmt::format("{} properties x {} cases", all.size() - not_run, in.cases);
	r.note = fmt::format("{}{}", failed ? fmt::format("{} properties failed", failed) : "",
			     not_run ? fmt::format("{}{} not run (the plugin lacks their path)", failed ? "; " : "", not_run)
				     : "");
	r.status = failed ? EngineStatus::finding : EngineStatus::ok;
	return r;
}

// The scoreboard: the property of the variant's slip first, each property
// in a worker, until one fails.
Catch hunt(const EngineInput &in, const Variant &v) {
	using namespace niov::props;
	Catch c;
	c.ran = true;
	// The target holds the variant itself; the plugin list is not needed.
	const LoadedTarget lt = load_target(v.path, "", v.request, in.limits);
	const RunParams rp = params(in, v.name);
	const std::string must = v.must_catch.empty() ? "" : property_for(v.must_catch);
	const auto failed = first_failure_isolated(lt, must, rp, in.limits, c.seconds);
	if (!failed)
		return c;
	const Outcome &o = failed->outcome;
	c.noticed = true;
	if (!failed->findings.empty()) {
		const auto &f = failed->findings.front();
		const Judged j = judge_finding(v, f.id);
		c.fault = j.fault;
		c.caught = j.caught;
		c.invariant = f.id;
		c.replay = f.replay;
		c.note = f.what + " (" + f.where + ")";
		return c;
	}
	c.invariant = o.name == "diff.model_vs_impl" ? "difference" : o.name;
	c.replay = o.replay;
	c.note = o.description;
	// A catch is a finding someone can see again: one without a replay
	// command is only noticed.
	c.caught = (must.empty() || o.name == must) && !c.replay.empty();
	return c;
}

// A child that died in a property: that property again, alone.
void died_at(const EngineInput &in, Observation &o) {
	if (o.what.rfind("property ", 0) == 0)
		o.replay = property_replay(in, o.what.substr(9));
}

}  // namespace props_parts

Engine props_engine() {
	return {.name = "props", .run = props_parts::run, .hunt = props_parts::hunt,
		.timeout = [](const EngineInput &in) { return 600 + static_cast<unsigned>(in.cases / 10); },
		.died_at = props_parts::died_at};
}

}  // namespace niov::cli
