// replay / explain: run one scenario file, in a worker, and report.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "check_core.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "report_json.hpp"
#include "rules_opts.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

namespace {

// @report (a JSON object's text, as the worker streamed it) with @extra's
// fields added, without building the report as a tree: a big run's report
// is tens of megabytes.
std::string with_fields(std::string report, const nlohmann::json &extra) {
	while (!report.empty() && std::isspace(static_cast<unsigned char>(report.back())))
		report.pop_back();
	if (report.size() < 2 || report.back() != '}')
		return extra.dump(2);
	report.pop_back();
	if (report.find_first_not_of(" \n\t{") == std::string::npos)  // it was {}
		return extra.dump(2);
	const std::string more = extra.dump();  // "{...}"
	return report + (more.size() > 2 ? ",\n" + more.substr(1) : "}");
}

// The report on its way from the worker to stdout: written as it comes but
// for its last bytes, the closing brace the command's own fields go before.
class ReportStream {
public:
	void put(std::string_view piece) {
		tail_ += piece;
		if (tail_.size() < 2 * kHeld)
			return;
		std::fwrite(tail_.data(), 1, tail_.size() - kHeld, stdout);
		tail_.erase(0, tail_.size() - kHeld);
		wrote_ = true;
	}
	bool started() const { return wrote_ || !tail_.empty(); }
	std::string &tail() { return tail_; }

private:
	static constexpr size_t kHeld = 4096;
	std::string tail_;
	bool wrote_ = false;
};

}  // namespace

int cmd_replay(Args &args, bool explain) {
	const bool json = args.flag("json");
	const bool verbose = args.flag("verbose");
	const worker::Limits lim = worker_limits(args);
	auto impl = impl_option(args, lim);
	const RulesRequest req_in = rules_request(args);
	const auto files = args.positional();
	if (files.size() != 1)
		throw UsageError("needs exactly one scenario file");
	auto parsed = load_scenario_file(files[0]);
	if (!parsed.scenario)
		throw UsageError(parsed.error.message);
	Scenario sc = std::move(*parsed.scenario);
	// Flags pin the scenario to the rules they name (so a printed replay
	// command runs exactly what failed); the file's expect lines speak for
	// its own rules only.  A plugin alone leaves the file's rules, with a
	// note when they are not the plugin's.
	std::string note;
	std::optional<RulesInForce> rules;
	// --policy alone on the model: on top of the file's own preset.
	RulesRequest req = req_in;
	if (!impl && req.rules.empty() && !req.policies.empty())
		req.rules = std::string(name(sc.cfg.preset));
	if (req.given()) {
		rules = resolve_rules(req, impl.get());
		if (!rules->matches(sc)) {
			sc.expect_violations.clear();
			sc.expect_bind_err.reset();
		}
		rules->pin(sc);
	} else if (impl) {
		try {
			const RulesInForce declared = resolve_rules(req, impl.get());
			if (!declared.matches(sc))
				note = fmt::format("note: the scenario's rules are not the plugin's ({}); {} runs it "
						   "under those\n",
						   declared.label(), declared.flags());
		} catch (const RulesError &) {
			note = "note: the plugin declares no rules; the scenario's own are used\n";
		}
	}
	RunOptions opts;
	opts.explain = explain;
	const std::string flags = rules ? rules->flags() : "";
	const std::string replay = replay_command(files[0], impl ? impl->path() : "", flags);
	ReportStream report;
	const worker::Outcome o = run_isolated(sc, files[0], impl.get(), opts, lim, flags,
					       [&](const RunReport &r, nlohmann::json findings) {
		const Verdict v = judge(sc, r);
		nlohmann::json j{{"clean", r.clean()},
				 {"as_expected", v.as_expected},
				 {"note", v.note},
				 {"findings", std::move(findings)}};
		if (json) {
			// Streamed: a big run's report is tens of megabytes.
			JsonWriter w([](std::string_view piece) { worker::stream(piece); });
			write_report_json(w, r, sc);
		} else {
			j["text"] = report_text(r, sc, explain, verbose);
		}
		return j;
	}, [&](const std::string &piece, const worker::Outcome &) {
		report.put(std::string_view(piece).substr(1));
		return true;
	});
	nlohmann::json payload;
	auto findings = nlohmann::json::array();
	if (auto f = worker_finding(o, replay))
		findings.push_back(to_json(*f));
	if (o.end == worker::End::result) {
		payload = nlohmann::json::parse(o.result);
		for (auto &f : payload["findings"])
			findings.push_back(f);
	}
	const bool ran = payload.is_object();
	// The same exit code as `check` gives the file: 0 when the run came out
	// as the scenario expects (an expected violation included).
	const bool as_expected = ran && payload.value("as_expected", false) && findings.empty();
	if (json) {
		nlohmann::json extra{{"schema", explain ? "niovcheck-explain/1" : "niovcheck-replay/1"},
				     {"as_expected", as_expected},
				     {"expectation_note", ran ? payload.value("note", "") : "the run did not finish"},
				     {"findings", findings}};
		if (rules)
			extra["rules_in_force"] = rules_json(*rules);
		if (report.started() && !ran)  // half a report is out: it cannot be finished as JSON
			throw std::runtime_error("the run ended while its report was written: " + o.what());
		if (!ran)
			extra["scenario"] = files[0];
		std::puts(with_fields(report.started() ? std::move(report.tail()) : "{}", extra).c_str());
	} else {
		std::fputs(note.c_str(), stdout);
		if (ran && payload.contains("text"))
			std::fputs(payload["text"].get<std::string>().c_str(), stdout);
		for (const auto &f : findings)
			std::fputs(to_text(*finding_from_json(f)).c_str(), stdout);
		if (ran && findings.empty() && !payload.value("clean", false))
			std::printf("%s\n", as_expected ? "as the scenario expects (its expect lines)"
							: ("not as expected: " + payload.value("note", "")).c_str());
	}
	return as_expected ? kExitClean : kExitViolation;
}

}  // namespace niov::cli
