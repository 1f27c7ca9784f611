// Scoreboard engine "fuzz": each libFuzzer target with $NIOV_IMPL set to the
// variant, from the shipped seed corpus, for the budget per target, until
// one aborts on the must-catch invariant.  The crashing input is decoded
// into a scenario file.  Needs the NIOV_FUZZ=ON clang build (n/a without).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "mutants.hpp"
#include "replay_command.hpp"
#include "work_dir.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;

constexpr fuzz::Target kTargets[] = {fuzz::Target::send, fuzz::Target::bind, fuzz::Target::config,
				     fuzz::Target::scenario};

// The harness' failure line: "niovcheck-fuzz <target>: <what> (...".
std::string failure_of(const fs::path &log, const std::string &target) {
	std::ifstream in(log);
	const std::string prefix = "niovcheck-fuzz " + target + ": ";
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

// libFuzzer's last words after a run that used its whole budget: without
// them a status 0 means something ended the process early (a plugin that
// calls exit(0) in a build without niovcheck's exit guard).
bool finished(const fs::path &log) {
	std::ifstream in(log);
	bool done = false, stats = false;
	for (std::string line; std::getline(in, line);) {
		done |= line.rfind("Done ", 0) == 0 && line.find(" runs in ") != std::string::npos;
		stats |= line.rfind("stat::number_of_executed_units:", 0) == 0;
	}
	return done && stats;
}

std::string first_artifact(const fs::path &dir) {
	std::error_code ec;
	for (const auto &e : fs::directory_iterator(dir, ec))
		if (e.path().filename().string().rfind("crash-", 0) == 0)
			return e.path().string();
	return "";
}

}  // namespace

Catch fuzz_engine(const Variant &v, const MutantsOptions &opt) {
	Catch c;
	if (!fs::exists(fs::path(opt.fuzz_bin_dir) / "send_fuzzer")) {
		c.note = "no libFuzzer build in " + opt.fuzz_bin_dir + " (cmake -DNIOV_FUZZ=ON with clang-14)";
		return c;
	}
	c.ran = true;
	const fs::path work =
		fs::temp_directory_path() / fmt::format("niov-mutants-{}-{}", safe_component(v.name), getpid());
	for (fuzz::Target t : kTargets) {
		const std::string tn(name(t));
		const fs::path dir = work / tn;
		std::error_code ec;
		fs::remove_all(dir, ec);
		fs::create_directories(dir / "corpus");
		fs::copy(fs::path(opt.source_dir) / "corpora" / tn, dir / "corpus", fs::copy_options::recursive, ec);
		const fs::path log = dir / "log";
		// -seed keeps the run replayable; the copied corpus is the writable
		// first directory, so the shipped seeds stay untouched.
		const std::string cmd = fmt::format(
			"NIOV_IMPL='{}' {} '{}/{}_fuzzer' -seed={} -max_total_time={} -max_len=4096 -timeout=10 "
			"-dict='{}/corpora/{}.dict' -artifact_prefix='{}/' -print_final_stats=1 '{}' >'{}' 2>&1",
			v.path, v.rules.env(), opt.fuzz_bin_dir, tn, opt.seed, opt.fuzz_seconds, opt.source_dir, tn, dir.string(),
			(dir / "corpus").string(), log.string());
		const auto start = std::chrono::steady_clock::now();
		const int status = std::system(cmd.c_str());
		c.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			if (finished(log))
				continue;  // the budget ran out without a crash
			const Judged j = judge_finding(v, "plugin.exit");
			c.noticed = true;
			c.fault = j.fault;
			c.caught = j.caught;
			c.invariant = "plugin.exit";
			c.note = fmt::format("{}_fuzzer exited 0 without libFuzzer's final stats: the run did not finish (log {})",
					     tn, log.string());
			c.replay = fmt::format("NIOV_IMPL={} {}/{}_fuzzer -seed={} -max_total_time={} {}", v.path,
					       opt.fuzz_bin_dir, tn, opt.seed, opt.fuzz_seconds, (dir / "corpus").string());
			break;
		}
		const std::string what = failure_of(log, tn);
		const std::string artifact = first_artifact(dir);
		if (what.empty() || artifact.empty()) {
			c.note = fmt::format("{}_fuzzer ended with status {} and no failure line (log {})", tn, status,
					     log.string());
			continue;
		}
		// The harness's words in the ids every engine judges by.
		const std::string id = what == "differential" ? "difference" : what == "sanitizer" ? "plugin.sanitizer" : what;
		const Judged j = judge_finding(v, id);
		const bool must = j.caught;
		if (c.noticed && !must)
			continue;  // keep the first catch of something else unless this is the one
		c.noticed = true;
		c.caught = must;
		c.invariant = id;
		c.fault = j.fault;
		fs::create_directories(opt.failure_dir, ec);
		const std::string scn =
			(fs::path(opt.failure_dir) / fmt::format("{}-fuzz-{}.scn", safe_component(v.name), tn)).string();
		try {
			corpus_decode(t, artifact, scn, v.path, v.request);
			c.replay = replay_command_line(opt.bin_dir + "/niovcheck", scn, v.path, v.rules.flags());
		} catch (const std::exception &e) {
			c.replay = fmt::format("{}/{}_fuzzer {}", opt.fuzz_bin_dir, tn, artifact);
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

}  // namespace niov::cli
