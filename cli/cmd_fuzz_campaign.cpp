// niovcheck fuzz-campaign: every libFuzzer target against every plugin for a
// fixed budget (the nightly campaign of ci/fuzz-plugins.sh).  The plugins
// are meant to be correct re-typings of their rules, so any finding (an
// invariant, a model-vs-plugin difference, a crash, a timeout, an OOM) fails
// the campaign, each with its input decoded into a scenario and its replay
// command.  A timeout that none of three replays of its input repeats is
// the machine's (a campaign starved by a build), not the code's: its row
// says so and it fails nothing.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "engines/libfuzzer.hpp"
#include "work_dir.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;

struct Pair {
	std::string name;  // the plugin's row name
	std::string plugin;
	FuzzJob job;
};

std::vector<std::string> words(const std::string &s) {
	std::vector<std::string> out;
	std::istringstream in(s);
	for (std::string w; in >> w;)
		out.push_back(w);
	return out;
}

// "libniov_baseline.so" -> "baseline".
std::string row_name(const std::string &path) {
	std::string stem = fs::path(path).stem().string();
	if (stem.rfind("libniov_", 0) == 0)
		stem.erase(0, 8);
	return stem;
}

// The first line that names a finding: the harness's, a sanitizer's or
// libFuzzer's (300 characters at most).
std::string finding_line(const std::string &log) {
	static const std::regex re("niovcheck-fuzz [a-z]+: |ERROR: (AddressSanitizer|libFuzzer)|runtime error|SUMMARY");
	std::istringstream in(log);
	for (std::string line; std::getline(in, line);)
		if (std::regex_search(line, re))
			return line.substr(0, 300);
	return "";
}

// Does the input of a timeout-* artifact time out again?  Three replays,
// each allowed the campaign's unit timeout.
bool timeout_repeats(const FuzzJob &j, const std::string &artifact) {
	FuzzJob once = j;
	once.wall_limit = j.unit_timeout + 60;
	for (int i = 1; i <= 3; ++i)
		if (std::system(fuzz_replay_command(once, artifact, fmt::format("{}.replay-{}.log", artifact, i)).c_str()) == 0)
			return false;
	return true;
}

}  // namespace

int cmd_fuzz_campaign(Args &args) {
	const std::string source = args.option("source-dir", NIOV_SOURCE_DIR);
	const char *fenv = std::getenv("NIOV_FUZZ_BUILD");
	const std::string bin =
		args.option("fuzz-build", fenv && *fenv ? fenv : source + "/build-fuzz") + "/bin";
	const auto targets = words(args.option("targets", "bind send config scenario"));
	const auto secs = static_cast<unsigned>(args.number("time", 120));
	const auto unit = static_cast<unsigned>(args.number("unit-timeout", 10));
	const auto jobs = static_cast<unsigned>(args.number("jobs", 1));
	const std::string sanitize = args.option("sanitize", "asan");
	const std::string out_arg = fs::absolute(args.option("out", "fuzz-plugins")).string();
	const bool dry = args.flag("dry-run");
	const std::string cli = fs::canonical("/proc/self/exe").string();
	const std::vector<std::string> plugins = args.options("impl");
	args.done();
	if (secs == 0 || unit == 0 || jobs == 0)
		throw UsageError("--time, --unit-timeout and --jobs take whole numbers >= 1");
	if (sanitize != "asan" && sanitize != "plain")
		throw UsageError("--sanitize asan or plain");
	if (plugins.empty())
		throw UsageError("needs --impl PATH (repeatable)");
	// Each pair's folder is cleared before it runs: only ever inside a
	// folder the suite marked as its own.
	const std::string out = dry ? out_arg : prepare_work_dir(out_arg, "--out");

	// The loop: every plugin x every target, side by side.
	std::vector<Pair> pairs;
	for (const auto &p : plugins)
		for (const auto &t : targets) {
			Pair pr;
			pr.name = safe_component(row_name(p));
			pr.plugin = fs::absolute(p).string();
			FuzzJob &j = pr.job;
			const auto target = fuzz::parse_target(t);
			if (!target)
				throw UsageError(fmt::format("--targets: no target '{}'", t));
			j.target = *target;
			j.bin_dir = bin;
			j.suffix = sanitize == "plain" ? "_nosan" : "";
			j.plugin = pr.plugin;
			j.source_dir = source;
			j.dir = fmt::format("{}/{}-{}", out, pr.name, t);
			j.artifacts = j.dir + "/artifacts";
			j.seconds = secs;
			j.unit_timeout = unit;
			j.rss_limit_mb = 2048;
			j.wall_limit = secs + 300;
			pairs.push_back(std::move(pr));
		}
	std::vector<FuzzJob> run;
	for (const auto &pr : pairs) {
		std::printf("+ %s\n", fuzz_command(pr.job).c_str());
		run.push_back(pr.job);
	}
	std::fflush(stdout);
	if (dry)
		return kExitClean;
	const std::vector<int> statuses = run_fuzz_jobs(run, jobs);

	std::string rows;
	bool failed = false;
	for (size_t k = 0; k < pairs.size(); ++k) {
		const Pair &pr = pairs[k];
		const FuzzJob &j = pr.job;
		const std::string tn(name(j.target));
		const FuzzLog log = read_fuzz_log(j);
		const int st = statuses[k];
		int rc = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		std::string finding = finding_line(log.text), note;
		// slow-unit-* files are not findings; every other artifact is.
		std::vector<std::string> artifacts;
		std::error_code ec;
		for (const auto &e : fs::directory_iterator(j.artifact_dir(), ec))
			if (e.path().filename().string().rfind("slow-unit-", 0) != 0)
				artifacts.push_back(e.path().string());
		// A timeout alone (libFuzzer stops at its first finding).
		if (artifacts.size() == 1 && fs::path(artifacts[0]).filename().string().rfind("timeout-", 0) == 0 &&
		    !timeout_repeats(j, artifacts[0])) {
			rc = 0;
			finding.clear();
			artifacts.clear();
			note = "ok: a timeout none of 3 replays repeated (the machine, not the code): " + j.artifact_dir();
		}
		std::string verdict = "ok";
		if (rc != 0 || !finding.empty() || !artifacts.empty()) {
			verdict = "FINDING";
			failed = true;
			if (finding.empty())
				finding = fmt::format("exit {} (see {})", rc, j.log());
			std::string kind;
			const std::string a = find_artifact(j.artifact_dir(), kind, {"crash-", "timeout-", "oom-"});
			if (!a.empty()) {
				try {
					corpus_decode(j.target, a, a + ".scn", pr.plugin, {});
					finding += fmt::format(" | replay: {} replay {}.scn --impl {}", cli, a, pr.plugin);
				} catch (const std::exception &) {
				}
			}
		}
		if (finding.empty())
			finding = note;
		const std::string execs = log.execs.empty() ? "0" : log.execs, rate = log.rate.empty() ? "0" : log.rate;
		std::printf("fuzz-plugins: %s %s: %s, %s execs, %s exec/s%s\n", pr.name.c_str(), tn.c_str(), verdict.c_str(),
			    execs.c_str(), rate.c_str(), finding.empty() ? "" : (": " + finding).c_str());
		rows += fmt::format("{:<12} {:<9} {:<8} {:>10} {:>8}  {}\n", pr.name, tn, verdict, execs, rate, finding);
	}
	std::printf("\n%-12s %-9s %-8s %10s %8s  %s\n%s", "plugin", "target", "verdict", "execs", "exec/s", "finding",
		    rows.c_str());
	std::printf("fuzz-plugins: %s (%us per target and plugin, %s)\n",
		    failed ? "FINDINGS: each one is a bug of the suite" : "no finding", secs, sanitize.c_str());
	return failed ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
