#include "all_engines.hpp"

#include "../kernel/tool/sanitizer_report.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "catalogue.hpp"
#include "check_core.hpp"
#include "findings.hpp"
#include "kernel_build.hpp"
#include "commands.hpp"
#include "plugin.hpp"
#include "proof_cache.hpp"
#include "prove.hpp"
#include "replay_command.hpp"
#include "runner.hpp"
#include "target.hpp"
#include "whole_file.hpp"
#include "work_dir.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string first_fired(const RunReport &r, const Scenario &sc) {
	for (const Trace *t : {&r.model, r.impl ? &*r.impl : nullptr}) {
		if (!t)
			continue;
		for (const auto &v : t->violations)
			if (std::find(sc.expect_violations.begin(), sc.expect_violations.end(), v.invariant) ==
			    sc.expect_violations.end())
				return v.invariant;
	}
	return r.differences.empty() ? "expectation" : "difference";
}

const fuzz::Target kFuzzTargets[] = {fuzz::Target::send, fuzz::Target::bind, fuzz::Target::config,
				     fuzz::Target::scenario};

std::string read_text(const fs::path &p) {
	std::ifstream in(p, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

// The harness's failure line: "niovcheck-fuzz <t>: <inv> (...): detail | replay: CMD".
bool harness_failure(const std::string &log, const std::string &target, Observation &o) {
	const std::string prefix = "niovcheck-fuzz " + target + ": ";
	std::istringstream in(log);
	for (std::string line; std::getline(in, line);) {
		if (line.rfind(prefix, 0) != 0)
			continue;
		const std::string rest = line.substr(prefix.size());
		o.invariant = rest.substr(0, rest.find(' '));
		if (o.invariant == "differential")
			o.invariant = "difference";
		const size_t bar = rest.find(" | replay: ");
		o.detail = rest.substr(0, bar);
		if (bar != std::string::npos) {
			o.replay = rest.substr(bar + 11);
			// "<cli> replay <file> ...": the second word after the CLI.
			std::istringstream words(o.replay);
			std::string cli, verb, file;
			if (words >> cli >> verb >> file && verb == "replay")
				o.scenario = file;
		}
		return true;
	}
	return false;
}

std::string artifact_in(const fs::path &dir, std::string &kind) {
	std::error_code ec;
	for (const char *prefix : {"crash-", "timeout-", "oom-", "leak-"})
		for (const auto &e : fs::directory_iterator(dir, ec))
			if (e.path().filename().string().rfind(prefix, 0) == 0) {
				kind = prefix;
				kind.pop_back();
				return e.path().string();
			}
	return "";
}

// Runs each shell command, at most @jobs at once; their wait statuses, in
// order (-1 where one could not start).
std::vector<int> run_side_by_side(const std::vector<std::string> &cmds, unsigned jobs) {
	std::vector<int> status(cmds.size(), -1);
	std::map<pid_t, size_t> running;
	size_t next = 0;
	while (next < cmds.size() || !running.empty()) {
		while (next < cmds.size() && running.size() < std::max(1u, jobs)) {
			const pid_t pid = fork();
			if (pid == 0) {
				execl("/bin/sh", "sh", "-c", cmds[next].c_str(), static_cast<char *>(nullptr));
				_exit(127);
			}
			if (pid > 0)
				running[pid] = next;
			++next;
		}
		int st = 0;
		const pid_t done = waitpid(-1, &st, 0);
		if (done < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (auto it = running.find(done); it != running.end()) {
			status[it->second] = st;
			running.erase(it);
		}
	}
	return status;
}

std::string stat_line(const std::string &log, const std::string &key) {
	const size_t at = log.find(key);
	if (at == std::string::npos)
		return "";
	const size_t end = log.find('\n', at);
	std::string v = log.substr(at + key.size(), end - at - key.size());
	v.erase(0, v.find_first_not_of(' '));
	return v;
}

// A scenario that expects violations and ran as expected against the code
// shows a known finding of the rules in force, in the code's own trace.
std::optional<Observation> known_shown(const AllContext &ctx, const CheckRow &row) {
	const auto &want = row.scenario.expect_violations;
	if (want.empty() || !row.report.impl)
		return std::nullopt;
	Observation o;
	o.engine = "replay";
	o.what = row.file;
	for (const auto &v : row.report.impl->violations)
		if (std::find(want.begin(), want.end(), v.invariant) != want.end()) {
			o.detail = fmt::format("{} at step {}: {}", v.invariant, v.step, v.detail);
			break;
		}
	if (o.detail.empty())
		return std::nullopt;
	for (const auto &inv : want)
		o.invariant += (o.invariant.empty() ? "" : " ") + inv;
	o.scenario = fs::absolute(row.file).string();
	o.replay = ctx.replay_command(o.scenario);
	return o;
}

}  // namespace

EngineResult replay_for_all(const AllContext &ctx, const Progress &p) {
	EngineResult r;
	r.name = "replay";
	const auto t0 = Clock::now();
	PluginImpl impl(ctx.plugin);
	const auto files = scenario_files({ctx.req.source_dir + "/corpora/scenarios", ctx.req.source_dir + "/corpora/regressions"});
	unsigned ran = 0, skipped = 0;
	for (const auto &f : files) {
		if (ctx.skip.count(f))
			continue;
		p.at(f);
		// Rules with policies of their own (a kernel tree's choices) take
		// their preset's scenarios too, under those policies.
		const CheckRun run = check_files({f}, &impl, ctx.rules, false, !ctx.rules.overrides().empty());
		ran += run.ran;
		skipped += run.skipped;
		for (const auto &row : run.rows) {
			bool known_bug = false;
			if (row.skipped.empty() && row.verdict.as_expected)
				if (auto k = known_shown(ctx, row)) {
					// The era's own bug (what the May 2026 fix refuses):
					// the tree has it, so it is a finding; the others are
					// the inputs' (exporters, devices) and only listed.
					if (unchecked_layout(row.scenario)) {
						k->invariant = std::string(kKnownBugPrefix) + k->invariant;
						known_bug = true;
						r.items.push_back({fs::path(f).filename().string(), EngineStatus::finding, k->detail});
						r.observations.push_back(std::move(*k));
					} else {
						r.known.push_back(std::move(*k));
					}
				}
			if (row.skipped.empty() && !known_bug)
				r.items.push_back({fs::path(f).filename().string(),
						   row.verdict.as_expected ? EngineStatus::ok : EngineStatus::finding,
						   row.verdict.note});
			if (!row.skipped.empty() || row.verdict.as_expected)
				continue;
			Observation o;
			o.engine = "replay";
			o.what = f;
			o.invariant = first_fired(row.report, row.scenario);
			o.detail = row.verdict.note;
			o.scenario = fs::absolute(f).string();
			o.replay = ctx.replay_command(o.scenario);
			r.observations.push_back(std::move(o));
		}
	}
	r.seconds = since(t0);
	r.runs = fmt::format("{} scenarios", ran);
	r.note = fmt::format("{} of {} shipped scenarios have other rules", skipped, files.size());
	if (ran == 0) {
		r.status = EngineStatus::not_run;
		r.note = fmt::format("no shipped scenario has the rules {} ({} have others)", ctx.rules.label(), skipped);
		return r;
	}
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

EngineResult props_for_all(const AllContext &ctx, const Progress &p) {
	using namespace niov::props;
	EngineResult r;
	r.name = "props";
	const auto t0 = Clock::now();
	const LoadedTarget lt = load_target(ctx.plugin, "", ctx.request);
	RunParams rp;
	rp.cases = ctx.cases;
	rp.seed = ctx.req.seed;
	rp.failure_dir = ctx.work + "/props";
	rp.niovcheck = ctx.niovcheck;
	rp.rules_flags = ctx.rules.flags();
	rp.tag = safe_component(ctx.plugin_name);  // a file name part: never a path a plugin chose
	unsigned failed = 0, not_run = 0;
	for (const auto &prop : all_properties()) {
		if (ctx.skip.count("property " + prop.name))
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
		ob.replay = !o.replay.empty() ? o.replay
					      : fmt::format("{} props --impl {} {} --property {} --seed {} --cases {}",
							    ctx.niovcheck, ctx.plugin, ctx.rules.flags(), prop.name,
							    ctx.req.seed, ctx.cases);
		r.observations.push_back(std::move(ob));
	}
	r.seconds = since(t0);
	r.runs = fmt::format("{} properties x {} cases", all_properties().size() - not_run, ctx.cases);
	r.note = fmt::format("{}{}", failed ? fmt::format("{} properties failed", failed) : "",
			     not_run ? fmt::format("{}{} not run (the plugin lacks their path)", failed ? "; " : "", not_run)
				     : "");
	r.status = failed ? EngineStatus::finding : EngineStatus::ok;
	return r;
}

std::string fuzz_bin_dir(const AllRequest &req) {
	if (!req.fuzz_bin_dir.empty())
		return req.fuzz_bin_dir;
	if (const char *e = std::getenv("NIOV_FUZZ_BUILD"); e && *e)
		return std::string(e) + "/bin";
	return req.source_dir + "/build-fuzz/bin";
}

bool fuzz_targets_built(const std::string &dir) {
	std::error_code ec;
	for (fuzz::Target t : kFuzzTargets)
		if (!fs::exists(fs::path(dir) / (std::string(name(t)) + "_fuzzer"), ec))
			return false;
	return true;
}

EngineResult fuzz_for_all(const AllContext &ctx, const Progress &p) {
	EngineResult r;
	r.name = "fuzz";
	const std::string bin = fuzz_bin_dir(ctx.req);
	if (!fuzz_targets_built(bin)) {
		r.note = fmt::format("no libFuzzer targets in {} (cmake --preset fuzz && cmake --build --preset fuzz)", bin);
		return r;
	}
	const std::string plugin = ctx.fuzz_plugin.empty() ? ctx.plugin : ctx.fuzz_plugin;
	if (plugin_needs_asan(plugin)) {
		r.note = "the plugin is built against gcc's ASan runtime, which the libFuzzer targets (clang's) cannot "
			 "load: kernel check --asan builds theirs with clang-14; for a plugin of your own, build it "
			 "with clang-14 -fsanitize=address or run the fuzz targets on its plain build";
		return r;
	}
	const auto t0 = Clock::now();
	// Every target with its own budget, side by side on the machine's
	// cores (--jobs): the verdict waits for the slowest, not for the sum.
	std::vector<std::string> cmds;
	for (fuzz::Target t : kFuzzTargets) {
		const std::string tn(name(t));
		const fs::path dir = fs::path(ctx.work) / "fuzz" / tn;
		std::error_code ec;
		fs::remove_all(dir, ec);
		fs::create_directories(dir / "corpus", ec);
		// A copy of the seeds is the writable first folder: the shipped
		// corpus is never written to.
		fs::copy(fs::path(ctx.req.source_dir) / "corpora" / tn, dir / "corpus", fs::copy_options::recursive, ec);
		const fs::path log = dir / "log";
		const std::string overrides = ctx.rules.overrides();
		// No LeakSanitizer (-detect_leaks=0 per input, detect_leaks=0 at
		// exit): leaks are judged by the harness's plugin.leak and the
		// traces' res.no_leak, which know the kernel's own (a gen_pool
		// whose niov went astray is never destroyed, a known finding).
		// Under `all --asan` this process runs with gcc's runtime preloaded:
		// never into the targets.
		const std::string cmd = fmt::format(
			"env -u LD_PRELOAD ASAN_OPTIONS=\"detect_leaks=0${{ASAN_OPTIONS:+:$ASAN_OPTIONS}}\" NIOV_IMPL={} NIOV_RULES={} NIOV_POLICY={} NIOV_FAILURE_DIR={} NIOV_CLI={} {} -seed={} "
			"-max_total_time={} -max_len=4096 -timeout=10 -detect_leaks=0 -dict={} -artifact_prefix={}/ "
			"-print_final_stats=1 {} >{} 2>&1",
			shell_quote(plugin), shell_quote(std::string(name(ctx.rules.preset))), shell_quote(overrides),
			shell_quote(dir.string()), shell_quote(ctx.niovcheck), shell_quote(bin + "/" + tn + "_fuzzer"),
			ctx.req.seed, ctx.fuzz_seconds, shell_quote(ctx.req.source_dir + "/corpora/" + tn + ".dict"),
			shell_quote(dir.string()), shell_quote((dir / "corpus").string()), shell_quote(log.string()));
		cmds.push_back(cmd);
	}
	p.at(fmt::format("fuzz targets, {} at a time", ctx.jobs));
	const std::vector<int> statuses = run_side_by_side(cmds, ctx.jobs);
	std::string runs;
	for (size_t k = 0; k < std::size(kFuzzTargets); ++k) {
		const fuzz::Target t = kFuzzTargets[k];
		const std::string tn(name(t));
		const fs::path dir = fs::path(ctx.work) / "fuzz" / tn;
		const fs::path log = dir / "log";
		const int status = statuses[k];
		const std::string text = read_text(log);
		const std::string execs = stat_line(text, "stat::number_of_executed_units:");
		runs += fmt::format("{}{} {}", runs.empty() ? "" : ", ", tn, execs.empty() ? "?" : execs);
		if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			r.items.push_back({tn + " target", EngineStatus::ok, ""});
			continue;
		}
		Observation o;
		o.engine = "fuzz";
		o.what = tn + " target";
		if (!harness_failure(text, tn, o)) {
			// Not the harness's own line: the plugin crashed, hung or a
			// sanitizer stopped it.  The input is the artifact, decoded.
			std::string kind;
			const std::string artifact = artifact_in(dir, kind);
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
									 status, log.string());
			if (!artifact.empty()) {
				const std::string scn = (dir / (kind + ".scn")).string();
				try {
					corpus_decode(t, artifact, scn, ctx.plugin, ctx.request);
					o.scenario = scn;
					o.replay = ctx.replay_command(scn);
				} catch (const std::exception &e) {
					o.replay = fmt::format("NIOV_IMPL={} {} {}/{}_fuzzer {}", plugin, ctx.rules.env(),
							       bin, tn, artifact);
				}
			}
		}
		r.items.push_back({o.what, EngineStatus::finding, o.detail});
		r.observations.push_back(std::move(o));
	}
	r.seconds = since(t0);
	r.runs = fmt::format("4 targets x {} s, {} at a time ({} runs)", ctx.fuzz_seconds, ctx.jobs, runs);
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

EngineResult proof_for_all(const AllContext &ctx, const Progress &p) {
	EngineResult r;
	r.name = "proof";
	const auto t0 = Clock::now();
	smt::ProveOptions o;
	o.presets = {ctx.rules.preset};
	o.policy_overrides = ctx.rules.overrides();
	std::set<std::string> families;
	for (const auto &l : smt::catalogue())
		families.insert(l.family);
	o.lemmas.assign(families.begin(), families.end());  // the catalogue, not the unsound checks
	o.json = true;
	o.timeout_ms = ctx.proof_timeout_ms;
	o.jobs = 2;
	o.cex_dir = ctx.work + "/proof/cex";
	o.report_path = ctx.work + "/proof/report.json";
	o.self_exe = ctx.niovcheck;
	// Proofs depend on what they prove, not on the plugin: a passing result
	// for the same rules, lemmas, sources and solver is taken as it is
	// (the nightly budget and --no-cache always prove again).
	const ProofKey key = proof_key(ctx.req.source_dir, ctx.rules.label(), o.lemmas, o.timeout_ms);
	const bool reuse = ctx.req.proof_cache && ctx.req.budget != Budget::nightly;
	const std::optional<std::string> kept = reuse ? proof_cache_read(key) : std::nullopt;
	std::string text;
	if (kept) {
		text = *kept;
	} else {
		p.at("prove " + ctx.rules.label());
		std::FILE *out = std::tmpfile();
		if (!out)
			throw std::runtime_error("tmpfile failed");
		smt::run_prove(o, out);
		std::rewind(out);
		char buf[65536];
		for (size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;)
			text.append(buf, n);
		std::fclose(out);
	}
	const auto j = nlohmann::json::parse(text);
	unsigned failed = 0;
	// One item per lemma: its rows are the configurations it was proved for.
	std::map<std::string, std::pair<bool, std::string>> lemmas;
	for (const auto &row : j.at("lemmas")) {
		auto &l = lemmas.try_emplace(row.value("lemma", row.value("id", "")), true, "").first->second;
		if (!row.value("ok", false) && l.first)
			l = {false, row.value("verdict", "")};
	}
	for (const auto &[name, l] : lemmas)
		r.items.push_back({name, l.first ? EngineStatus::ok : EngineStatus::finding, l.second});
	for (const auto &row : j.at("lemmas")) {
		if (row.value("ok", false))
			continue;
		++failed;
		Observation ob;
		ob.engine = "proof";
		ob.what = row.value("id", "");
		ob.invariant = row.value("invariant", "");
		ob.detail = row.value("verdict", "");
		ob.model_only = true;
		for (const auto &res : row.at("results")) {
			if (res.value("ok", true))
				continue;
			ob.detail = fmt::format("{} at {}: {}", row.value("id", ""), res.value("point", ""),
						res.value("status", ""));
			const std::string file = res.value("scenario", "");
			if (file.empty())
				break;
			// The counterexample as a finding's file: no expect lines, so
			// its replay fails as the proof did.
			auto parsed = load_scenario_file(file);
			if (!parsed.scenario)
				break;
			Scenario sc = *parsed.scenario;
			sc.expect_violations.clear();
			sc.expect_bind_err.reset();
			const fs::path copy = fs::path(ctx.work) / "proof" / fs::path(file).filename();
			const std::string cex = fmt::format("# niovcheck all: counterexample to {} under {}\n", ob.what,
							    ctx.rules.label()) +
						serialize_scenario(sc);
			if (const std::string err = write_whole_file(copy.string(), cex); !err.empty())
				throw std::runtime_error(fmt::format("{}: cannot write: {}", copy.string(), err));
			ob.scenario = copy.string();
			break;
		}
		ob.replay = !ob.scenario.empty()
				    ? ctx.replay_command(ob.scenario, true)
				    : fmt::format("{} prove --lemma {} {}", ctx.niovcheck, ob.what, ctx.rules.flags());
		r.observations.push_back(std::move(ob));
	}
	r.seconds = since(t0);
	r.runs = fmt::format("{} configurations, {} queries", j.value("configs", 0), j.value("queries", 0));
	if (kept)
		r.runs += fmt::format(" (cached, fingerprint {})", key.hash);
	else if (!failed)
		proof_cache_write(key, text);
	r.note = failed ? fmt::format("{} lemmas not proved", failed) : "";
	r.status = failed ? EngineStatus::finding : EngineStatus::ok;
	return r;
}

EngineResult faults_for_all(const AllContext &ctx, const Progress &p) {
	EngineResult r;
	r.name = "faults";
	const auto t0 = Clock::now();
	PluginImpl impl(ctx.plugin);
	if (!impl.has_faults()) {
		r.note = "the plugin lacks fault injection (NIOV_CAP_FAULTS)";
		return r;
	}
	p.at("the fault sweep");
	const auto files = scenario_files({ctx.req.source_dir + "/corpora/scenarios"});
	const FaultsRun run = run_faults(impl, ctx.rules, files);
	for (const auto &sw : run.sweeps)
		if (sw.not_run.empty())
			r.items.push_back({fs::path(sw.scenario).filename().string(),
					   sw.violations.empty() ? EngineStatus::ok : EngineStatus::finding,
					   sw.violations.empty() ? "" : sw.violations.front().invariant + ": " + sw.violations.front().detail});
	for (const auto &sw : run.sweeps)
		for (const auto &v : sw.violations) {
			Observation ob;
			ob.engine = "faults";
			ob.what = sw.scenario;
			ob.invariant = v.invariant;
			ob.detail = v.detail;
			// A failure injected into the Nth call is the sweep's own case:
			// its replay is the sweep of that one file.
			ob.replay = fmt::format("{} faults --impl {} {} {}", ctx.niovcheck, ctx.plugin, ctx.rules.flags(),
						fs::absolute(sw.scenario).string());
			r.observations.push_back(std::move(ob));
		}
	r.seconds = since(t0);
	r.runs = fmt::format("{} binds swept, {} failures injected", run.swept, run.injected);
	if (run.swept == 0) {
		r.note = "no shipped scenario's bind could be swept";
		return r;
	}
	r.note = fmt::format("{} of {} scenarios not swept (their bind fails or needs a path the plugin lacks)",
			     files.size() - run.swept, files.size());
	r.status = r.observations.empty() ? EngineStatus::ok : EngineStatus::finding;
	return r;
}

}  // namespace niov::cli
