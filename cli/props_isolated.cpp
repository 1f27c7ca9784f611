#include "props_isolated.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "breadcrumb.hpp"
#include "whole_file.hpp"

namespace niov::cli {

namespace {

using props::Outcome;
using props::Property;

nlohmann::json outcome_json(const Outcome &o) {
	return {{"name", o.name},	    {"passed", o.passed},	 {"cases", o.cases},
		{"seconds", o.seconds},	    {"cpu_seconds", o.cpu_seconds}, {"message", o.message},
		{"description", o.description}, {"reproduce", o.reproduce}, {"scenario", o.scenario_file},
		{"replay", o.replay},	    {"not_run", o.not_run}};
}

Outcome outcome_from_json(const nlohmann::json &j) {
	Outcome o;
	o.name = j.value("name", "");
	o.passed = j.value("passed", false);
	o.cases = j.value("cases", uint64_t{0});
	o.seconds = j.value("seconds", 0.0);
	o.cpu_seconds = j.value("cpu_seconds", 0.0);
	o.message = j.value("message", "");
	o.description = j.value("description", "");
	o.reproduce = j.value("reproduce", "");
	o.scenario_file = j.value("scenario", "");
	o.replay = j.value("replay", "");
	o.not_run = j.value("not_run", "");
	return o;
}

std::string only_plugin(const props::LoadedTarget &lt) {
	return lt.plugins.size() == 1 ? lt.plugins.front()->path() : "";
}

// The command that runs one property again.
std::string props_command(const Property &p, const props::RunParams &rp, const std::string &plugin) {
	return fmt::format("{} props --property {} --seed {:#x} --cases {}{}", self_exe(), p.name, rp.seed, rp.cases,
			   plugin.empty() ? "" : " --impl " + absolute(plugin));
}

// In the worker: property @p, then every plugin's leak check, as one row.
nlohmann::json property_row(const Property &p, const props::LoadedTarget &lt, const props::RunParams &rp) {
	crumb_context("property " + p.name);
	const Outcome o = props::run_property(p, lt.target, rp);
	auto findings = nlohmann::json::array();
	Breadcrumb &b = breadcrumb();
	if (b.fault_id[0]) {  // a PluginFault the property counted as a failing case
		findings.push_back(to_json(WorkerFinding{b.fault_id, b.fault, "plugin " + std::string(b.plugin) + ", property " + p.name,
							 o.replay}));
		b.fault_id[0] = b.fault[0] = 0;
	}
	for (const auto &pl : lt.plugins)
		if (auto l = pl->leak_check())
			findings.push_back(
				to_json(leak_finding(*l, pl->name(), "property " + p.name, props_command(p, rp, pl->path()))));
	return {{"outcome", outcome_json(o)}, {"findings", findings}};
}

IsolatedProperty row_from_json(const nlohmann::json &j) {
	IsolatedProperty r;
	r.outcome = outcome_from_json(j["outcome"]);
	for (const auto &f : j["findings"])
		r.findings.push_back(*finding_from_json(f));
	return r;
}

// Findings make the row a failure; its message and replay say them.
void settle(IsolatedProperty &r) {
	if (r.findings.empty())
		return;
	r.outcome.passed = false;
	std::string text;
	for (const auto &f : r.findings)
		text += to_text(f);
	r.outcome.message = text + r.outcome.message;
	if (r.outcome.replay.empty())
		r.outcome.replay = r.findings.front().replay;
	if (r.outcome.description.empty())
		r.outcome.description = r.findings.front().id + ": " + r.findings.front().what;
}

// The worker died in property @p: run it again alone keeping every case's
// text, and write the case that was running when it died as a scenario file.
WorkerFinding fault_finding(const Property &p, const props::LoadedTarget &lt, const props::RunParams &rp,
			    const worker::Limits &lim, const worker::Outcome &first) {
	WorkerFinding f{first.id(), first.what(), first.where(), ""};
	worker::Limits record = lim;
	record.record_cases = true;
	const worker::Outcome again = worker::run([&] { return property_row(p, lt, rp).dump(); }, record);
	const std::string plugin = !first.plugin.empty() ? first.plugin : only_plugin(lt);
	if (again.ok() || again.case_text.empty()) {
		if (again.ok())
			f.what += " (a second run of the property did not reproduce it)";
		f.replay = props_command(p, rp, plugin);
		return f;
	}
	props::RunParams fault_rp = rp;
	fault_rp.tag = rp.tag.empty() ? "fault" : rp.tag + "-fault";
	const std::string file = props::failure_path(p.name, fault_rp);
	f.replay = replay_command(file, plugin);
	const std::string text =
		fmt::format("# niovcheck props: the plugin died in property {} (seed {:#x}, case {})\n# {}: {}\n# replay: {}\n{}",
			    p.name, rp.seed, again.case_no, f.id, again.what(), f.replay,
			    again.case_truncated ? "# (the case's text was cut at the breadcrumb's size)\n" : "") +
		again.case_text;
	if (const std::string err = write_whole_file(file, text); !err.empty()) {
		f.what += " (could not write the case to " + file + ": " + err + ")";
		f.replay = props_command(p, rp, plugin);
	}
	return f;
}

bool is_hang(const std::string &id) { return id == "plugin.hang" || id == "plugin.timeout"; }

}  // namespace

std::vector<IsolatedProperty> run_properties_isolated(const PropsRun &run, const props::LoadedTarget &lt,
						      const props::RunParams &rp, const worker::Limits &lim) {
	std::vector<IsolatedProperty> rows;
	auto add = [&](IsolatedProperty r) {
		settle(r);
		if (run.each)
			run.each(r);
		// A property the plugin lacks the path of did not fail: go on.
		const bool go_on = !run.stop_at_failure || r.outcome.passed || !r.outcome.not_run.empty();
		rows.push_back(std::move(r));
		return go_on;
	};
	std::string hung_in;
	worker::Batch b;
	b.items = run.order.size();
	b.item = [&](size_t k) { return property_row(*run.order[k], lt, rp).dump(); };
	b.done = [&](size_t k, const std::string &result, uint64_t printed, const worker::Outcome &so_far) {
		const Property &p = *run.order[k];
		IsolatedProperty r = row_from_json(nlohmann::json::parse(result));
		if (printed) {
			worker::Outcome out = so_far;
			out.end = worker::End::result;
			out.stdout_bytes = printed;
			out.context = "property " + p.name;
			r.findings.insert(r.findings.begin(), *worker_finding(out, props_command(p, rp, only_plugin(lt))));
		}
		return add(std::move(r));
	};
	b.died = [&](size_t k, const worker::Outcome &o) {
		const Property &p = *run.order[k];
		IsolatedProperty r;
		r.outcome.name = p.name;
		r.outcome.seconds = o.seconds;
		r.outcome.cases = o.case_no;
		r.findings.push_back(fault_finding(p, lt, rp, lim, o));
		if (is_hang(r.findings.front().id))
			hung_in = p.name;
		return add(std::move(r)) && hung_in.empty();
	};
	worker::run_batch(b, lim);
	// A plugin that hung would hang the rest too: not run, and failed.
	for (size_t k = rows.size(); !hung_in.empty() && !run.stop_at_failure && k < run.order.size(); ++k) {
		IsolatedProperty r;
		r.run = false;
		r.outcome.name = run.order[k]->name;
		r.outcome.message = "not run: the plugin hung in property " + hung_in;
		add(std::move(r));
	}
	return rows;
}

std::optional<IsolatedProperty> first_failure_isolated(const props::LoadedTarget &lt, const std::string &first,
						       const props::RunParams &rp, const worker::Limits &lim,
						       double &seconds) {
	PropsRun run;
	run.order = props::properties_from(first);
	run.stop_at_failure = true;
	const auto rows = run_properties_isolated(run, lt, rp, lim);
	seconds = 0;
	for (const auto &r : rows) {
		seconds += r.outcome.seconds;
		if (!r.outcome.passed && r.outcome.not_run.empty())
			return r;
	}
	return std::nullopt;
}

}  // namespace niov::cli
