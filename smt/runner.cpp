#include "runner.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

namespace niov::smt {

namespace {

void classify(JobResult &r) {
	const Outcome &o = r.out;
	switch (o.verdict) {
	case Verdict::proved:
		// In an unsound check some configurations may still be safe (e.g. the
		// niov is one page); the check needs a counterexample somewhere.
		r.ok = true;
		r.status = r.job.expect_cex ? "proved (safe in this configuration)" : "proved";
		return;
	case Verdict::unknown:
		r.ok = false;
		r.status = "unknown (" + (o.reason.empty() ? std::string("no reason") : o.reason) + ")";
		return;
	case Verdict::counterexample:
		break;
	}
	if (!o.confirmed) {
		// Z3 and the concrete rules disagree on the model: a backend bug.
		r.ok = false;
		r.status = "counterexample the concrete rules do not confirm";
		return;
	}
	const bool replayed = !r.cex.has_scenario || r.cex.confirmed;
	if (r.job.expect_cex) {
		r.ok = replayed;
		r.status = replayed ? "counterexample (expected)" : "counterexample, but its scenario does not replay";
		return;
	}
	r.ok = r.cex.has_scenario && r.cex.confirmed && r.cex.known_finding;
	r.status = r.ok ? "counterexample (known finding)" : "counterexample";
}

}  // namespace

std::string file_stem(const std::string &lemma, const std::string &label) {
	std::string s = lemma + "@" + label;
	for (char &c : s)
		if (c == ' ')
			c = '_';
		else if (c == '=')
			c = '-';
		else if (c == '/')
			c = '_';
	return s;
}

namespace {

// Run fn(0..n-1) on up to @threads threads.
template <class Fn>
void parallel_for(size_t n, unsigned threads, Fn fn) {
	std::atomic<size_t> next{0};
	auto worker = [&] {
		for (size_t k; (k = next.fetch_add(1)) < n;)
			fn(k);
	};
	std::vector<std::thread> pool;
	const unsigned t = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, n)));
	for (unsigned i = 0; i < t; ++i)
		pool.emplace_back(worker);
	for (auto &th : pool)
		th.join();
}

// A run's counterexample folder holds that run's files only: drop the
// scenario files an earlier run wrote (recognised by their first line).
void remove_old_counterexamples(const std::string &dir) {
	std::error_code ec;
	for (const auto &e : std::filesystem::directory_iterator(dir, ec)) {
		if (e.path().extension() != ".scn")
			continue;
		std::ifstream f(e.path());
		std::string first;
		std::getline(f, first);
		if (first.rfind(kCexHeader, 0) == 0)
			std::filesystem::remove(e.path(), ec);
	}
}

}  // namespace

std::vector<JobResult> run_jobs(const std::vector<Job> &jobs, const RunOptions &opts) {
	std::vector<JobResult> results(jobs.size());
	for (size_t i = 0; i < jobs.size(); ++i) {
		results[i].job = jobs[i];
		results[i].label = point_label(jobs[i].point, jobs[i].lemma->reads);
	}
	// Jobs that agree on what the lemma reads share one query; so do jobs
	// whose queries come out identical (a parameter the rules ignore under
	// these policies, e.g. the page size when lookup=niov).
	std::map<std::string, size_t> by_label;
	std::vector<size_t> labelled;
	std::vector<size_t> source(jobs.size());
	for (size_t i = 0; i < jobs.size(); ++i) {
		auto [it, fresh] = by_label.emplace(jobs[i].lemma->id + "|" + results[i].label, i);
		source[i] = it->second;
		if (fresh)
			labelled.push_back(i);
	}
	std::vector<Query> query(jobs.size());
	std::vector<std::string> build_error(jobs.size());
	parallel_for(labelled.size(), opts.jobs, [&](size_t k) {
		const size_t i = labelled[k];
		try {
			query[i] = build_query(*results[i].job.lemma, results[i].job.point);
		} catch (const z3::exception &e) {
			build_error[i] = std::string("z3: ") + e.msg();
		}
	});
	std::map<std::string, size_t> by_text;
	std::vector<size_t> unique;
	for (size_t i : labelled) {
		std::string text = results[i].job.lemma->id + "\n";
		for (const auto &g : query[i].goals)
			text += g;
		auto [it, fresh] = by_text.emplace(std::move(text), i);
		source[i] = it->second;
		if (fresh)
			unique.push_back(i);
	}
	for (size_t i = 0; i < jobs.size(); ++i)
		source[i] = source[source[i]];

	if (!opts.smt2_dir.empty())
		std::filesystem::create_directories(opts.smt2_dir);
	if (!opts.cex_dir.empty())
		remove_old_counterexamples(opts.cex_dir);
	parallel_for(unique.size(), opts.jobs, [&](size_t k) {
		JobResult &r = results[unique[k]];
		SolveOptions so;
		so.timeout_ms = opts.timeout_ms;
		if (!opts.smt2_dir.empty())
			so.smt2_prefix =
				(std::filesystem::path(opts.smt2_dir) / file_stem(r.job.lemma->id, r.label)).string();
		if (!build_error[unique[k]].empty())
			r.out.reason = build_error[unique[k]];
		else
			r.out = solve_query(*r.job.lemma, r.job.point, query[unique[k]], so);
	});

	for (size_t i = 0; i < results.size(); ++i) {
		JobResult &r = results[i];
		if (source[i] != i) {
			r.shared = true;
			r.out = results[source[i]].out;
			// The concrete check is per job: the point's plain parameters may differ.
			if (r.out.verdict == Verdict::counterexample)
				r.out.confirmed = concrete_counterexample(*r.job.lemma, r.job.point, r.out.model);
		}
		if (r.out.verdict == Verdict::counterexample && opts.scenarios) {
			const Lemma &l = *r.job.lemma;
			r.cex = counterexample_report(
				l, r.job.point, r.out.model,
				{fmt::format("{} {}: {}", kCexHeader + 2, l.id, l.statement),
				 fmt::format("configuration: {} ({})", r.label, r.job.group),
				 fmt::format("model: {}", r.out.model.to_string()), "written by niovcheck prove"});
			if (r.cex.has_scenario && !opts.cex_dir.empty())
				write_counterexample(r.cex, opts.cex_dir, file_stem(r.job.group + "." + l.id, r.label));
		}
		classify(r);
	}
	return results;
}

}  // namespace niov::smt
