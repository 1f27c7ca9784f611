#include "engines/libfuzzer.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "replay_command.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string &p) {
	std::ifstream in(p, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
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

// The environment every run of a target gets: the plugin, the rules, where
// the harness writes and which CLI its replay lines name.
std::string environment(const FuzzJob &j) {
	std::string env = "env -u LD_PRELOAD";
	if (!j.leak_sanitizer)
		env += " ASAN_OPTIONS=\"detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}\"";
	env += " NIOV_IMPL=" + shell_quote(j.plugin);
	if (j.rules)
		env += " " + j.rules->env();
	if (!j.failure_dir.empty())
		env += " NIOV_FAILURE_DIR=" + shell_quote(j.failure_dir);
	if (!j.cli.empty())
		env += " NIOV_CLI=" + shell_quote(j.cli);
	if (j.wall_limit)
		env += fmt::format(" timeout {}", j.wall_limit);
	return env;
}

}  // namespace

std::string FuzzJob::binary() const { return fmt::format("{}/{}_fuzzer{}", bin_dir, name(target), suffix); }
std::string FuzzJob::log() const { return dir + "/log"; }
std::string FuzzJob::artifact_dir() const { return artifacts.empty() ? dir : artifacts; }

std::string fuzz_command(const FuzzJob &j) {
	const std::string tn(name(j.target));
	std::string flags = fmt::format("-max_total_time={} -max_len=4096 -timeout={}", j.seconds, j.unit_timeout);
	if (j.seed)
		flags = fmt::format("-seed={} {}", j.seed, flags);
	if (!j.leak_sanitizer)
		flags += " -detect_leaks=0";
	if (j.rss_limit_mb)
		flags += fmt::format(" -rss_limit_mb={}", j.rss_limit_mb);
	return fmt::format("{} {} {} -dict={} -artifact_prefix={}/ -print_final_stats=1 {} >{} 2>&1", environment(j),
			   shell_quote(j.binary()), flags, shell_quote(j.source_dir + "/corpora/" + tn + ".dict"),
			   shell_quote(j.artifact_dir()), shell_quote(j.dir + "/corpus"), shell_quote(j.log()));
}

std::string fuzz_replay_command(const FuzzJob &j, const std::string &input, const std::string &log) {
	FuzzJob once = j;
	once.failure_dir.clear();
	once.cli.clear();
	return fmt::format("{} {} -timeout={} -runs=1 {}{}", environment(once), shell_quote(j.binary()), j.unit_timeout,
			   shell_quote(input), log.empty() ? "" : fmt::format(" >{} 2>&1", shell_quote(log)));
}

std::vector<int> run_side_by_side(const std::vector<std::string> &cmds, unsigned at_once) {
	std::vector<int> status(cmds.size(), -1);
	std::map<pid_t, size_t> running;
	size_t next = 0;
	while (next < cmds.size() || !running.empty()) {
		while (next < cmds.size() && running.size() < std::max(1u, at_once)) {
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

std::vector<int> run_fuzz_jobs(const std::vector<FuzzJob> &jobs, unsigned at_once) {
	std::vector<std::string> cmds;
	for (const auto &j : jobs) {
		const std::string tn(name(j.target));
		std::error_code ec;
		fs::remove_all(j.dir, ec);
		fs::create_directories(fs::path(j.dir) / "corpus", ec);
		fs::create_directories(j.artifact_dir(), ec);
		fs::copy(fs::path(j.source_dir) / "corpora" / tn, fs::path(j.dir) / "corpus", fs::copy_options::recursive, ec);
		cmds.push_back(fuzz_command(j));
	}
	return run_side_by_side(cmds, at_once);
}

FuzzLog read_fuzz_log(const FuzzJob &j) {
	FuzzLog l;
	l.text = read_text(j.log());
	l.execs = stat_line(l.text, "stat::number_of_executed_units:");
	l.rate = stat_line(l.text, "stat::average_exec_per_sec:");
	// libFuzzer's last words after a run that used its whole budget.
	std::istringstream in(l.text);
	bool done = false, stats = false;
	for (std::string line; std::getline(in, line);) {
		done |= line.rfind("Done ", 0) == 0 && line.find(" runs in ") != std::string::npos;
		stats |= line.rfind("stat::number_of_executed_units:", 0) == 0;
	}
	l.finished = done && stats;
	return l;
}

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

std::string find_artifact(const std::string &dir, std::string &kind, const std::vector<std::string> &prefixes) {
	std::error_code ec;
	for (const auto &prefix : prefixes)
		for (const auto &e : fs::directory_iterator(dir, ec))
			if (e.path().filename().string().rfind(prefix, 0) == 0) {
				kind = prefix;
				kind.pop_back();
				return e.path().string();
			}
	return "";
}

std::string fuzz_bin_dir(const AllRequest &req) {
	if (!req.fuzz_bin_dir.empty())
		return req.fuzz_bin_dir;
	if (const char *e = std::getenv("NIOV_FUZZ_BUILD"); e && *e)
		return std::string(e) + "/bin";
	return req.source_dir + "/build-fuzz/bin";
}

bool fuzz_targets_built(const std::string &dir, const std::string &suffix) {
	std::error_code ec;
	for (fuzz::Target t : kFuzzTargets)
		if (!fs::exists(fs::path(dir) / (std::string(name(t)) + "_fuzzer" + suffix), ec))
			return false;
	return true;
}

}  // namespace niov::cli
