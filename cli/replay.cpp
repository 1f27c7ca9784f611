// replay / explain / check: run scenario files and report.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "findings.hpp"
#include "plugin.hpp"
#include "json_writer.hpp"
#include "report_json.hpp"

namespace niov::cli {

namespace {

Scenario load_or_throw(const std::string &path) {
	auto r = load_scenario_file(path);
	if (!r.scenario)
		throw UsageError(r.error.message);
	return std::move(*r.scenario);
}

std::unique_ptr<PluginImpl> impl_option(Args &args) {
	const std::string path = args.option("impl", "");
	if (path.empty())
		return nullptr;
	return std::make_unique<PluginImpl>(path);
}

// Did the run come out as the scenario says it should?
struct Verdict {
	bool as_expected = true;
	std::string note;
};

Verdict judge(const Scenario &sc, const RunReport &r) {
	Verdict v;
	std::vector<std::string> got;
	for (const auto &x : r.model.violations)
		got.push_back(x.invariant);
	// The model keeps no resources: what a plugin's counters show that the
	// scenario explains (model/findings.hpp) is no surprise to its author.
	if (r.impl)
		for (const auto &x : r.impl->violations)
			if (x.invariant.rfind("res.", 0) != 0 || !is_known_finding(sc, x.invariant))
				got.push_back(x.invariant);
	std::sort(got.begin(), got.end());
	got.erase(std::unique(got.begin(), got.end()), got.end());
	std::vector<std::string> want = sc.expect_violations;
	std::sort(want.begin(), want.end());
	want.erase(std::unique(want.begin(), want.end()), want.end());
	if (got != want) {
		v.as_expected = false;
		std::string g, w;
		for (const auto &s : got)
			g += (g.empty() ? "" : ",") + s;
		for (const auto &s : want)
			w += (w.empty() ? "" : ",") + s;
		v.note = fmt::format("violations [{}] expected [{}]", g, w.empty() ? "none" : w);
	}
	const int err = RunReport::bind_err(r.model);
	if (sc.expect_bind_err && *sc.expect_bind_err != err) {
		v.as_expected = false;
		v.note += fmt::format("{}bind {} expected {}", v.note.empty() ? "" : "; ", errno_name(err),
				      errno_name(*sc.expect_bind_err));
	}
	if (!r.differences.empty()) {
		v.as_expected = false;
		v.note += fmt::format("{}{} model/plugin differences", v.note.empty() ? "" : "; ",
				      r.differences.size());
	}
	return v;
}

void collect(const std::string &path, std::vector<std::string> &out) {
	namespace fs = std::filesystem;
	std::error_code ec;
	if (fs::is_directory(path, ec)) {
		std::vector<std::string> found;
		for (const auto &e : fs::recursive_directory_iterator(path, ec))
			if (e.is_regular_file() && e.path().extension() == ".scn")
				found.push_back(e.path().string());
		std::sort(found.begin(), found.end());
		out.insert(out.end(), found.begin(), found.end());
		return;
	}
	if (!fs::exists(path, ec))
		throw UsageError(fmt::format("{}: no such file or directory", path));
	out.push_back(path);
}

}  // namespace

int cmd_replay(Args &args, bool explain) {
	const bool json = args.flag("json");
	const bool verbose = args.flag("verbose");
	auto impl = impl_option(args);
	const auto files = args.positional();
	if (files.size() != 1)
		throw UsageError("needs exactly one scenario file");
	const Scenario sc = load_or_throw(files[0]);
	RunOptions opts;
	opts.explain = explain;
	const RunReport r = run_scenario(sc, impl.get(), opts);
	if (json) {
		JsonWriter w(stdout);
		write_report_json(w, r, sc);
	}
	else
		std::fputs(report_text(r, sc, explain, verbose).c_str(), stdout);
	return r.clean() ? kExitClean : kExitViolation;
}

int cmd_check(Args &args) {
	const bool json = args.flag("json");
	auto impl = impl_option(args);
	std::vector<std::string> files;
	for (const auto &p : args.positional())
		collect(p, files);
	if (files.empty())
		throw UsageError("no scenario files given");
	auto rows = nlohmann::json::array();
	int unexpected = 0;
	int not_compared = 0;  // not representable, or the plugin asked nothing
	if (!json)
		std::printf("%-44s %-12s %-10s %-8s %-9s %s\n", "scenario", "rules", "bind", "niov", "result",
			    "verdict");
	for (const auto &f : files) {
		const Scenario sc = load_or_throw(f);
		const RunReport r = run_scenario(sc, impl.get());
		const Verdict v = judge(sc, r);
		unexpected += !v.as_expected;
		const int err = RunReport::bind_err(r.model);
		const std::string niov = err ? "-" : fmt::format("{}K", (uint64_t{1} << r.model.bind.niov_shift) >> 10);
		const size_t nviol = r.model.violations.size() + (r.impl ? r.impl->violations.size() : 0);
		const std::string verdict = r.verdict();
		not_compared += verdict == "not representable" || verdict == "not run";
		const std::string result = verdict == "violation"
						   ? fmt::format("{} viol", nviol + r.differences.size())
					   : verdict == "not representable" ? "not repr." : verdict;
		if (json) {
			rows.push_back({{"scenario", f}, {"rules", name(sc.cfg.preset)}, {"bind_err", err},
					{"result", result}, {"as_expected", v.as_expected}, {"note", v.note},
					{"report", report_json(r, sc)}});
		} else {
			std::string shown = f.size() > 44 ? "..." + f.substr(f.size() - 41) : f;
			std::printf("%-44s %-12s %-10s %-8s %-9s %s\n", shown.c_str(),
				    std::string(name(sc.cfg.preset)).c_str(),
				    std::string(errno_name(err)).c_str(), niov.c_str(), result.c_str(),
				    v.as_expected ? "ok" : ("UNEXPECTED: " + v.note).c_str());
		}
	}
	if (json)
		std::puts(nlohmann::json{{"scenarios", rows}, {"unexpected", unexpected}, {"not_compared", not_compared}}
				  .dump(2)
				  .c_str());
	else
		std::printf("%zu scenarios, %d as expected, %d unexpected%s\n", files.size(),
			    static_cast<int>(files.size()) - unexpected, unexpected,
			    not_compared ? fmt::format(", {} not compared with the plugin", not_compared).c_str() : "");
	return unexpected ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
