#include "promote.hpp"

#include <filesystem>
#include <fstream>
#include <set>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include "prove.hpp"

extern char **environ;

namespace niov::smt {

namespace {

namespace fs = std::filesystem;

// Run a command without a shell; true on exit status 0.
bool run(const std::vector<std::string> &argv) {
	std::vector<char *> a;
	for (const auto &s : argv)
		a.push_back(const_cast<char *>(s.c_str()));
	a.push_back(nullptr);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	const int rc = posix_spawn(&pid, a[0], &fa, nullptr, a.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return false;
	int status = 0;
	if (waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string stem_for(const JobResult &r) {
	// Unsound checks by their id; known findings by lemma and configuration.
	std::string s = r.job.expect_cex ? r.job.group : file_stem(r.job.lemma->id, r.label);
	for (char &c : s)
		if (c == '.' || c == '@')
			c = '-';
	return "prove-" + s;
}

}  // namespace

std::vector<std::string> promote(const std::vector<JobResult> &results, const std::string &dir,
				 const std::string &self_exe) {
	std::vector<std::string> written;
	std::error_code ec;
	fs::create_directories(dir, ec);
	if (ec)
		throw ProveUsageError("--promote: cannot create " + dir);
	std::set<std::string> seen;  // one scenario per unsound check or lemma
	for (const auto &r : results) {
		if (r.out.verdict != Verdict::counterexample || !r.cex.confirmed || r.cex.file.empty())
			continue;
		const std::string key = r.job.expect_cex ? r.job.group : r.job.group + "/" + r.job.lemma->id;
		if (!seen.insert(key).second)
			continue;
		const std::string stem = stem_for(r);
		const fs::path target = fs::path(dir) / (stem + ".scn");
		fs::copy_file(r.cex.file, target, fs::copy_options::overwrite_existing, ec);
		if (ec)
			throw ProveUsageError("--promote: cannot write " + target.string());
		written.push_back(target.string());
		// The fuzz corpora next to the regressions, when the fuzz engine is built.
		const fs::path corpora = fs::path(dir).parent_path();
		for (const char *t : {"scenario", "send", "bind"}) {
			const fs::path tdir = corpora / t;
			if (self_exe.empty() || !fs::is_directory(tdir))
				continue;
			const fs::path out = tdir / stem;
			if (run({self_exe, "corpus", "encode", target.string(), out.string(), "--target", t}))
				written.push_back(out.string());
		}
	}
	return written;
}

}  // namespace niov::smt
