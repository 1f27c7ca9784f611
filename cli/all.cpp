#include "all.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "all_child.hpp"
#include "all_progress.hpp"
#include "all_findings.hpp"
#include "all_probe.hpp"
#include "all_report.hpp"
#include "all_run.hpp"
#include "../kernel/tool/sanitizer_report.hpp"
#include "args.hpp"
#include "engines/engine.hpp"
#include "engines/libfuzzer.hpp"
#include "kernel_build.hpp"
#include "mutants.hpp"
#include "output_paths.hpp"
#include "plugin.hpp"
#include "plugin_load.hpp"
#include "runner.hpp"
#include "whole_file.hpp"
#include "work_dir.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;

// The plugin under test: --impl, or the one kernel_build() makes of --kernel.
void pick_plugin(const AllRequest &req, EngineInput &c, std::string &kernel_note) {
	if (!req.impl.empty() && !req.kernel.empty())
		throw UsageError("--impl and --kernel: give one");
	if (req.impl.empty() && req.kernel.empty())
		throw UsageError("needs --impl PATH or --kernel DIR");
	c.request = req.rules;
	if (!req.kernel.empty()) {
		KernelBuildOptions kopt;
		kopt.asan = req.asan;
		kopt.quiet = req.quiet;
		const KernelBuild b = kernel_build(req.kernel, kopt);
		c.plugin = b.plugin;
		// The libFuzzer targets carry clang's ASan runtime, which cannot
		// load a plugin built against gcc's: theirs is built with clang-14.
		if (req.asan && std::system("command -v clang-14 >/dev/null 2>&1") == 0) {
			kopt.cc = "clang-14";
			kopt.quiet = true;
			c.fuzz_plugin = kernel_build(req.kernel, kopt).plugin;
		}
		kernel_note = fmt::format("era {}, rules {}{}, plugin {}{}{}", b.era.letter, b.rules,
					  b.policy.empty() ? "" : " + " + b.policy, b.plugin, b.cached ? " (cached)" : "",
					  req.asan ? ", ASan + UBSan" : "");
		c.rules_from_code = b.read.lines;
		// The tree's code decides the rules unless the user says otherwise;
		// where it does not say plainly, the user must.
		if (!req.rules.given()) {
			if (!b.read.ambiguous.empty())
				throw UsageError(fmt::format(
					"{}: the code does not say plainly which rules it follows: {}{}; pass --rules/--policy",
					req.kernel, b.read.ambiguous.front(),
					b.read.ambiguous.size() > 1
						? fmt::format(" (and {} more: kernel probe lists them)", b.read.ambiguous.size() - 1)
						: ""));
			c.request.rules = b.rules;
			c.request.rules_name = "the tree's code";
			if (!b.policy.empty()) {
				c.request.policies = {b.policy};
				c.request.policy_name = "the tree's code";
			}
		}
		return;
	}
	std::error_code ec;
	c.plugin = fs::absolute(req.impl, ec).string();
	if (!fs::exists(c.plugin, ec))
		throw UsageError(fmt::format("--impl {}: no such file", req.impl));
}

// The libFuzzer targets: found, or built with the fuzz preset when clang-14
// is here.  False (with @why) when neither.
bool ensure_fuzz_targets(const AllRequest &req, ProgressDisplay &show, std::string &why) {
	const std::string dir = fuzz_bin_dir(req);
	if (fuzz_targets_built(dir))
		return true;
	if (!req.build_fuzz) {
		why = fmt::format("no libFuzzer targets in {} (--no-build-fuzz)", dir);
		return false;
	}
	if (std::system("command -v clang++-14 >/dev/null 2>&1") != 0) {
		why = "no libFuzzer targets and no clang++-14 to build them (ci/install-deps.sh installs it)";
		return false;
	}
	show.note("building the libFuzzer targets (cmake --preset fuzz), once ...");
	const std::string log = (fs::path(req.source_dir) / "build-fuzz.log").string();
	const std::string cmd = fmt::format(
		"cd '{}' && cmake --preset fuzz >'{}' 2>&1 && cmake --build --preset fuzz --target send_fuzzer "
		"bind_fuzzer config_fuzzer scenario_fuzzer niovcheck >>'{}' 2>&1",
		req.source_dir, log, log);
	if (std::system(cmd.c_str()) != 0 || !fuzz_targets_built(dir)) {
		why = fmt::format("building the libFuzzer targets failed (see {})", log);
		return false;
	}
	return true;
}

// An engine whose child did not come back is a finding of its own.
EngineResult engine_died(const Engine &e, const ChildOutcome &o, const EngineInput &c) {
	const std::string name = e.name;
	EngineResult r;
	r.name = name;
	r.status = EngineStatus::finding;
	r.seconds = o.seconds;
	Observation ob;
	ob.engine = name;
	ob.what = o.progress.empty() ? "(before its first case)" : o.progress;
	ob.signal = o.signal;
	const std::string in_op = o.op.empty() ? "" : " in " + o.op;
	// A sanitizer that stopped the engine inside the code (the faults
	// sweep runs the binds in the engine's own process): what fired, in
	// the tree's function and file:line, not "exited 1".
	const auto sanitizer = o.timed_out || o.hung_call ? std::nullopt : kernel::parse_sanitizer_report(o.log);
	if (sanitizer) {
		ob.invariant = "sanitizer";
		ob.detail = sanitizer->one_line();
	} else if (o.hung_call) {
		ob.invariant = "hang";
		ob.detail = fmt::format("a plugin call{} did not return within {} s", in_op, c.limits.op_seconds);
	} else if (o.timed_out) {
		ob.invariant = "hang";
		ob.detail = fmt::format("no result within {} s", static_cast<unsigned>(o.seconds));
	} else if (o.fault_id == "plugin.exit") {  // the exit guard's abort is ours, not a crash
		ob.invariant = "exit";
		ob.signal = 0;
		ob.detail = o.fault;
	} else if (!o.fault_id.empty() && !o.signal) {  // a breach of the ABI's contract
		ob.invariant = o.fault_id;
		ob.detail = o.fault;
	} else if (o.signal) {
		ob.invariant = "crash";
		ob.detail = fmt::format("killed by {}{}", signal_name(o.signal), in_op);
	} else {
		ob.invariant = "exit";
		ob.detail = fmt::format("exited with status {}{} without a result", o.exit_code, in_op);
	}
	r.note = fmt::format("the {} engine: {} while at {}", name, ob.detail, ob.what);
	// What was running is the replay, where the engine has one for it.
	if (e.died_at)
		e.died_at(c, ob);
	r.observations.push_back(std::move(ob));
	return r;
}

// One engine in a child; when the child dies on a case, that case is a
// finding and a new child goes on past it, so one crash hides nothing else.
// A plugin that hung once would hang the next case too, and a child past
// its whole budget has no case to skip: both end the engine.
EngineResult run_engine(const Engine &e, EngineInput &c, ProgressDisplay &show) {
	constexpr unsigned kMaxDeaths = 20;
	std::vector<Observation> deaths;
	double seconds = 0;
	for (unsigned attempt = 0;; ++attempt) {
		const ChildOutcome o = run_in_child([&](const Progress &p) { return to_json(e.run(c, p)); },
						    {e.timeout ? e.timeout(c) : 600u, c.limits.op_seconds}, c.work,
						    fmt::format("engine-{}-{}", e.name, attempt),
						    [&](const ChildStatus &st) { show.tick(st); });
		seconds += o.seconds;
		if (!o.error.empty())  // an error of ours (a file the suite could not write, say)
			throw UsageError(fmt::format("the {} engine failed: {}", e.name, o.error));
		if (o.completed || o.interrupted) {
			EngineResult r;
			r.name = e.name;
			if (o.completed)
				r = engine_from(o.result);
			r.seconds = seconds;
			if (o.interrupted)
				r.note = fmt::format("interrupted by {}{}", signal_name(stop_signal()),
						     o.progress.empty() ? "" : " while at " + o.progress);
			if (!deaths.empty()) {
				r.status = EngineStatus::finding;
				r.note = fmt::format("{}{}{} case{} crashed or hung the engine, skipped", r.note,
						     r.note.empty() ? "" : "; ", deaths.size(), deaths.size() == 1 ? "" : "s");
				r.observations.insert(r.observations.begin(), deaths.begin(), deaths.end());
				for (const auto &d : deaths)
					r.items.push_back({d.what, EngineStatus::finding, d.detail});
			}
			return r;
		}
		EngineResult died = engine_died(e, o, c);
		deaths.push_back(died.observations.front());
		if (o.progress.empty() || c.skip.count(o.progress) || attempt + 1 >= kMaxDeaths || o.hung_call ||
		    o.timed_out) {
			died.observations = deaths;
			died.seconds = seconds;
			if (o.hung_call)
				died.note += "; the engine stopped there (the plugin would hang the next case too)";
			return died;
		}
		c.skip.insert(o.progress);
	}
}

// The verdict of a plugin that died while being loaded: nothing else ran.
AllVerdict load_death_verdict(const EngineInput &c, const Observation &died) {
	AllVerdict v;
	v.ctx = &c;
	v.kernel = c.req.kernel;
	EngineResult load{"load", EngineStatus::finding, died.detail, "the plugin's constructors and niov_impl_get", 0,
			  {died}, {}, {}};
	v.engines.push_back(load);
	v.findings = group_findings(c, v.engines);
	check_replays(c, v.findings);
	return v;
}

// The folder for this run's files: --work-dir, else one per plugin under
// ./niovcheck-failures, the next free one when a folder of that name holds
// files of someone else's.
std::string work_folder(const AllRequest &req, const std::string &plugin_name) {
	if (!req.work_dir.empty())
		return prepare_work_dir(req.work_dir, "--work-dir");
	const std::string base = "niovcheck-failures/all-" + safe_component(plugin_name);
	for (unsigned n = 1;; ++n) {
		try {
			return prepare_work_dir(n == 1 ? base : fmt::format("{}-{}", base, n), "the work folder");
		} catch (const UsageError &) {
			if (n >= 100)
				throw;
		}
	}
}

std::vector<std::pair<std::string, bool>> scoreboard(const EngineInput &c, const std::vector<Finding> &findings,
						     const std::vector<EngineResult> &results) {
	std::vector<std::pair<std::string, bool>> row;
	if (c.must_catch.empty())
		return row;
	// Judged as the scoreboard judges (mutants.hpp), the deaths by their ids.
	Variant v;
	v.must_catch = c.must_catch;
	auto id_of = [](const Observation &o) -> std::string {
		return o.invariant == "crash" ? "plugin.signal"
		       : o.invariant == "exit" ? "plugin.exit"
		       : o.invariant == "hang" ? "plugin.hang"
					       : o.invariant;
	};
	for (const auto &e : results) {
		// Only the scoreboard's engines that judge the plugin's code (the
		// proofs judge the rules in force).
		const Engine *eng = find_engine(e.name);
		if (e.status == EngineStatus::not_run || !eng || !eng->hunt || !eng->judges_code)
			continue;
		bool caught = false;
		for (const auto &f : findings)
			for (const auto &o : f.seen_by) {
				if (o.engine != e.name)
					continue;
				const bool by_difference = f.key.rfind("difference", 0) == 0;
				caught |= judge_finding(v, id_of(o)).caught ||
					  (c.must_catch == "difference" && by_difference) ||
					  std::find(f.violates.begin(), f.violates.end(), c.must_catch) != f.violates.end();
			}
		row.emplace_back(e.name, caught);
	}
	return row;
}

}  // namespace

std::unique_ptr<AllRun> check_all(const AllRequest &req) {
	const auto t0 = std::chrono::steady_clock::now();
	for (const auto &e : req.engines)
		if (!find_engine(e))
			throw UsageError(fmt::format("--engines: no engine '{}' ({})", e, engine_list()));
	// Where the report goes is known before anything runs: a verdict that
	// cannot be written is lost work.
	check_stdout();
	if (!req.junit.empty())
		check_output_path(req.junit, "--junit");
	auto run = std::make_unique<AllRun>();
	EngineInput &c = run->ctx;
	c.req = req;
	c.limits = req.limits;
	std::string kernel_note;
	pick_plugin(req, c, kernel_note);
	c.niovcheck = fs::canonical("/proc/self/exe").string();
	check_plugin_file(c.plugin);
	const PluginProbe probe = probe_plugin(c.plugin, c.request, c.limits, c.niovcheck, req.source_dir);
	if (probe.facts) {
		c.plugin_name = probe.facts->name;
		c.must_catch = probe.facts->must_catch;
		c.rules = probe.facts->rules;
	} else {
		c.plugin_name = fs::path(c.plugin).filename().string();
		c.rules = {};
		c.rules.from = "not known: the plugin died while loading";
	}
	const bool nightly = req.budget == Budget::nightly;
	c.cases = req.cases ? req.cases : nightly ? 20000 : 1000;
	// Presubmit fuzzing is a smoke on the seeds, the wait for a verdict is
	// what a developer pays: 4 targets x 8 s on two cores is 16 s of a
	// verdict that must come in about 30.  Nightly is where fuzzing finds.
	c.fuzz_seconds = req.fuzz_seconds ? req.fuzz_seconds : nightly ? 600 : 8;
	c.jobs = req.jobs ? req.jobs : std::max(1u, std::thread::hardware_concurrency());
	c.proof_timeout_ms = req.proof_timeout_ms ? req.proof_timeout_ms : 20000;
	c.work = work_folder(req, c.plugin_name);
	const std::string warn_log = start_warn_log(c.work);
	catch_stop_signals();
	ProgressDisplay show(progress_mode(req.quiet));

	AllVerdict &v = run->verdict;
	v.ctx = &c;
	v.kernel = req.kernel;
	if (probe.died) {
		v = load_death_verdict(c, *probe.died);
	} else {
		std::vector<EngineResult> results;
		for (const auto &e : registry()) {
			if (!req.engines.empty() &&
			    std::find(req.engines.begin(), req.engines.end(), e.name) == req.engines.end())
				continue;
			std::string why;
			if (stop_signal())
				why = fmt::format("interrupted by {} before it started", signal_name(stop_signal()));
			else if (e.needs_fuzz_targets)
				ensure_fuzz_targets(req, show, why);  // says why not, when not
			if (why.empty()) {
				show.start(e.name, e.estimate ? e.estimate(c) : 0);
				results.push_back(run_engine(e, c, show));
				show.end(results.back());
				continue;
			}
			EngineResult r;
			r.name = e.name;
			r.note = why;
			results.push_back(r);
		}
		// The engines' files are in the work folder: when it could not be
		// written (a full disk), what they said is not a verdict on the code.
		try {
			check_writable(c.work, "the work folder");
		} catch (const UsageError &e) {
			throw UsageError(std::string(e.what()) + " (the engines could not keep their files: no verdict)");
		}
		v.warns = read_warn_log(warn_log);
		if (!req.kernel.empty()) {  // the tree's own names: net/core/devmem.c:87
			std::error_code ec;
			const std::string tree = fs::canonical(req.kernel, ec).string() + "/";
			for (auto &w : v.warns)
				if (w.site.starts_with(tree))
					w.site.erase(0, tree.size());
		}
		v.interrupted = stop_signal();
		if (!v.interrupted) {
			show.note("naming the root causes ...");
			v.findings = group_findings(c, results);
			check_replays(c, v.findings);
			v.scoreboard = scoreboard(c, v.findings, results);
		}
		// Stopped while naming them: half-named findings are not a result.
		if ((v.interrupted = stop_signal())) {
			v.findings.clear();
			v.scoreboard.clear();
		}
		v.engines = std::move(results);
	}
	if (!kernel_note.empty())
		v.engines.insert(v.engines.begin(), EngineResult{"kernel", EngineStatus::ok, kernel_note, "build", 0, {}, {}, {}});
	v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return run;
}

int report_all(const AllRun &run, std::FILE *out) {
	const AllRequest &req = run.ctx.req;
	const AllVerdict &v = run.verdict;
	if (req.json)
		std::fputs((verdict_json(v).dump(2) + "\n").c_str(), out);
	else if (req.tap)
		print_tap(out, v);
	else if (req.summary)
		print_summary(out, v);
	else
		print_text(out, v);
	if (std::fflush(out) != 0 || std::ferror(out))
		throw UsageError(fmt::format("the verdict was not written to stdout: {}", std::strerror(errno)));
	if (!req.junit.empty())
		if (const std::string err = write_whole_file(req.junit, junit_xml(v)); !err.empty())
			throw UsageError(fmt::format("--junit {}: cannot write: {}", req.junit, err));
	return v.exit_code();
}

int run_all(const AllRequest &req, std::FILE *out) { return report_all(*check_all(req), out); }

}  // namespace niov::cli
