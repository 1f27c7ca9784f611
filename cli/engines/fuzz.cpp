// Engine "fuzz": each libFuzzer target from a copy of its seed corpus, with
// the plugin in $NIOV_IMPL, for the budget (engines/libfuzzer.hpp runs it).
// Needs the NIOV_FUZZ=ON clang build.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "../kernel/tool/sanitizer_report.hpp"
#include "commands.hpp"
#include "engines/engine.hpp"
#include "engines/libfuzzer.hpp"
#include "kernel_build.hpp"
#include "replay_command.hpp"
#include "work_dir.hpp"

namespace niov::cli {

// Its parts, named after it: a unity build compiles the engines as one file.
namespace fuzz_parts {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The run of @t for @in: the targets' own seed, the rules in force.
FuzzJob job_for(const EngineInput &in, fuzz::Target t, const std::string &bin, const std::string &plugin,
		const fs::path &dir) {
	FuzzJob j;
	j.target = t;
	j.bin_dir = bin;
	j.plugin = plugin;
	j.rules = &in.rules;
	j.source_dir = in.req.source_dir;
	j.dir = dir.string();
	j.seconds = in.fuzz_seconds;
	j.seed = in.req.seed;
	return j;
}

bool exited_zero(int status) { return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

EngineResult run(const EngineInput &in, const Progress &p) {
	EngineResult r;
	r.name = "fuzz";
	const std::string bin = fuzz_bin_dir(in.req);
	if (!fuzz_targets_built(bin)) {
		r.note = fmt::format("no libFuzzer targets in {} (cmake --preset fuzz && cmake --build --preset fuzz)", bin);
		return r;
	}
	const std::string plugin = in.fuzz_plugin.empty() ? in.plugin : in.fuzz_plugin;
	if (plugin_needs_asan(plugin)) {
		r.note = "the plugin is built against gcc's ASan runtime, which the libFuzzer targets (clang's) cannot "
			 "load: kernel check --asan builds theirs with clang-14; for a plugin of your own, build it "
			 "with clang-14 -fsanitize=address or run the fuzz targets on its plain build";
		return r;
	}
	const auto t0 = Clock::now();
	// Every target with its own budget, side by side on the machine's
	// cores (--jobs): the verdict waits for the slowest, not for the sum.
	// No LeakSanitizer: leaks are judged by the harness's plugin.leak and
	// the traces' res.no_leak, which know the kernel's own (a gen_pool
	// whose niov went astray is never destroyed, a known finding).
	std::vector<FuzzJob> jobs;
	for (fuzz::Target t : kFuzzTargets) {
		FuzzJob j = job_for(in, t, bin, plugin, fs::path(in.work) / "fuzz" / std::string(name(t)));
		j.leak_sanitizer = false;
		j.failure_dir = j.dir;
		j.cli = in.niovcheck;
		jobs.push_back(std::move(j));
	}
	p.at(fmt::format("fuzz targets, {} at a time", in.jobs));
	const std::vector<int> statuses = run_fuzz_jobs(jobs, in.jobs);
	std::string runs;
	for (size_t k = 0; k < jobs.size(); ++k) {
		const FuzzJob &j = jobs[k];
		const std::string tn(name(j.target));
		const int status = statuses[k];
		const FuzzLog log = read_fuzz_log(j);
		runs += fmt::format("{}{} {}", runs.empty() ? "" : ", ", tn, log.execs.empty() ? "?" : log.execs);
		if (exited_zero(status)) {
			r.items.push_back({tn + " target", EngineStatus::ok, ""});
			continue;
		}
		Observation o;
		o.engine = "fuzz";
		o.what = tn + " target";
		if (!harness_failure(log.text, tn, o)) {
			// Not the harness's own line: the plugin crashed, hung or a
			// sanitizer stopped it.  The input is the artifact, decoded.
			std::string kind;
			const std::string artifact = find_artifact(j.artifact_dir(), kind);
			const std::string &text = log.text;
			o.invariant = kind == "timeout" ? "hang" : text.find("AddressSanitizer") != std::string::npos ||
									   text.find("runtime error:") != std::string::npos
									   ? "sanitizer"
									   : "crash";
			const size_t at = text.find("==ERROR:");
			if (const auto san = kernel::parse_sanitizer_report(text))
				o.detail = san->one_line();
			else
				o.detail = at != std::string::npos ? text.substr(at, text.find('\n', at) - at)
							   : fmt::format("{}_fuzzer ended with status {} (log {})", tn,
									 status, j.log());
			if (!artifact.empty()) {
				const std::string scn = (fs::path(j.dir) / (kind + ".scn")).string();
				try {
					corpus_decode(j.target, artifact, scn, in.plugin, in.request);
					o.scenario = scn;
					o.replay = in.replay_command(scn);
				} catch (const std::exception &e) {
					o.replay = fuzz_replay_command(j, artifact);
				}
			}
		}
		r.items.push_back({o.what, EngineStatus::finding, o.detail});
		r.observations.push_back(std::move(o));
	}
	r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
	r.runs = fmt::format("4 targets x {} s, {} at a time ({} runs)", in.fuzz_seconds, in.jobs, runs);
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

// The first failure a log names, in the order it names them: the
// harness's own line ("niovcheck-fuzz <target>: <what> (..."), a sanitizer,
// a deadly signal, a timeout ("" = none).
std::string failure_of(const std::string &log, const std::string &target) {
	const std::string prefix = "niovcheck-fuzz " + target + ": ";
	std::istringstream in(log);
	for (std::string line; std::getline(in, line);) {
		if (line.rfind(prefix, 0) == 0) {
			const auto rest = line.substr(prefix.size());
			return rest.substr(0, rest.find(' '));
		}
		if (line.find("ERROR: AddressSanitizer") != std::string::npos ||
		    line.find("runtime error:") != std::string::npos)
			return "sanitizer";
		if (line.find("ERROR: libFuzzer: deadly signal") != std::string::npos)
			return "plugin.signal";
		if (line.find("ERROR: libFuzzer: timeout") != std::string::npos)
			return "plugin.hang";
	}
	return "";
}

// The scoreboard: one target after another, until one aborts on the
// variant's slip.  The crashing input is decoded into a scenario file.
Catch hunt(const EngineInput &in, const Variant &v) {
	Catch c;
	const std::string bin = fuzz_bin_dir(in.req);
	if (!fs::exists(fs::path(bin) / "send_fuzzer")) {
		c.note = "no libFuzzer build in " + bin + " (cmake -DNIOV_FUZZ=ON with clang-14)";
		return c;
	}
	c.ran = true;
	const fs::path work =
		fs::temp_directory_path() / fmt::format("niov-mutants-{}-{}", safe_component(v.name), getpid());
	for (fuzz::Target t : kFuzzTargets) {
		const std::string tn(name(t));
		const FuzzJob j = job_for(in, t, bin, v.path, work / tn);
		const auto start = Clock::now();
		const int status = run_fuzz_jobs({j}, 1).front();
		c.seconds += std::chrono::duration<double>(Clock::now() - start).count();
		const FuzzLog log = read_fuzz_log(j);
		if (exited_zero(status)) {
			if (log.finished)
				continue;  // the budget ran out without a crash
			// Without libFuzzer's last words a status 0 means something
			// ended the process early (a plugin that calls exit(0) in a
			// build without niovcheck's exit guard).
			const Judged jd = judge_finding(v, "plugin.exit");
			c.noticed = true;
			c.fault = jd.fault;
			c.caught = jd.caught;
			c.invariant = "plugin.exit";
			c.note = fmt::format("{}_fuzzer exited 0 without libFuzzer's final stats: the run did not finish (log {})",
					     tn, j.log());
			c.replay = fuzz_command(j);
			break;
		}
		const std::string what = failure_of(log.text, tn);
		std::string kind;
		const std::string artifact = find_artifact(j.artifact_dir(), kind, {"crash-"});
		if (what.empty() || artifact.empty()) {
			c.note = fmt::format("{}_fuzzer ended with status {} and no failure line (log {})", tn, status, j.log());
			continue;
		}
		// The harness's words in the ids every engine judges by.
		const std::string id = what == "differential" ? "difference" : what == "sanitizer" ? "plugin.sanitizer" : what;
		const Judged jd = judge_finding(v, id);
		const bool must = jd.caught;
		if (c.noticed && !must)
			continue;  // keep the first catch of something else unless this is the one
		c.noticed = true;
		c.caught = must;
		c.invariant = id;
		c.fault = jd.fault;
		std::error_code ec;
		fs::create_directories(in.work, ec);
		const std::string scn =
			(fs::path(in.work) / fmt::format("{}-fuzz-{}.scn", safe_component(v.name), tn)).string();
		try {
			corpus_decode(t, artifact, scn, v.path, v.request);
			c.replay = replay_command_line(in.niovcheck, scn, v.path, v.rules.flags());
		} catch (const std::exception &e) {
			c.replay = fuzz_replay_command(j, artifact);
			c.note = e.what();
		}
		if (must)
			break;
	}
	// Keep the work folder only when the replay command points into it.
	std::error_code ec;
	if (c.replay.find(work.string()) == std::string::npos)
		fs::remove_all(work, ec);
	return c;
}

// The four targets take rounds of --jobs, each the budget's seconds.
double estimate(const EngineInput &in) {
	const unsigned at_once = std::max(1u, in.jobs);
	return static_cast<double>((std::size(kFuzzTargets) + at_once - 1) / at_once * in.fuzz_seconds);
}

}  // namespace fuzz_parts

Engine fuzz_engine() {
	// Its child may take the targets one at a time, at worst.
	return {.name = "fuzz", .run = fuzz_parts::run, .hunt = fuzz_parts::hunt,
		.timeout = [](const EngineInput &in) { return 4 * (in.fuzz_seconds + 120); },
		.estimate = fuzz_parts::estimate,
		.needs_fuzz_targets = true};
}

}  // namespace niov::cli
