// `niovcheck prove`: plan the jobs, honour --if-changed, run, report, store
// the report with the rules' fingerprint, promote counterexamples.
#include "prove.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalogue.hpp"
#include "fingerprint.hpp"
#include "hunt.hpp"
#include "matrix.hpp"
#include "promote.hpp"
#include "prove_output.hpp"
#include "runner.hpp"

namespace niov::smt {

namespace {

using Clock = std::chrono::steady_clock;

bool selects(const std::vector<std::string> &filters, const std::string &id, const std::string &family) {
	if (filters.empty())
		return true;
	for (const auto &f : filters)
		if (f == id || f == family)
			return true;
	return false;
}

// Does the lemma's point @p fall under the check's configuration?
bool check_matches(const Lemma &l, const UnsoundCheck &c, const Point &p) {
	if ((l.reads & kReadsPageShift) && p.page_shift != c.point.page_shift)
		return false;
	if ((l.reads & (kReadsDevice | kReadsDevMax)) && p.dev != c.point.dev)
		return false;
	if ((l.reads & kReadsNiovShift) && c.point.niov_shift && p.niov_shift != c.point.niov_shift)
		return false;
	return true;
}

std::string rules_label(Preset pr, const std::string &overrides) {
	return overrides.empty() ? std::string(name(pr)) : std::string(name(pr)) + "+" + overrides;
}

// "20261201-103000-1234": when and which process, so runs never share a folder.
std::string run_id() {
	const std::time_t t = std::time(nullptr);
	std::tm tm{};
	localtime_r(&t, &tm);
	char buf[32];
	std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
	return fmt::format("{}-{}", buf, getpid());
}

struct Plan {
	std::vector<Job> jobs;
	std::vector<const UnsoundCheck *> checks;
	std::vector<NotApplicable> not_applicable;
};

Plan make_plan(const ProveOptions &o) {
	Plan plan;
	for (const auto &f : o.lemmas) {
		bool known = false;
		for (const auto &l : catalogue())
			known |= f == l.id || f == l.family;
		for (const auto &c : unsound_catalogue())
			known |= f == c.id || f == "unsound";
		if (!known)
			throw ProveUsageError(fmt::format("--lemma '{}': no such lemma, family or unsound check "
							  "(niovcheck prove --list)",
							  f));
	}
	for (Preset pr : o.presets) {
		const Policies pol = preset_with(pr, o.policy_overrides);
		const std::string group = rules_label(pr, o.policy_overrides);
		for (const auto &l : catalogue()) {
			if (!selects(o.lemmas, l.id, l.family))
				continue;
			if (const std::string why = not_applicable(l, pol); !why.empty()) {
				plan.not_applicable.push_back({&l, group, why});
				continue;
			}
			for (const auto &p : l.points(pol))
				plan.jobs.push_back({&l, p, group, false});
		}
	}
	for (const auto &c : unsound_catalogue()) {
		if (!selects(o.lemmas, c.id, "unsound"))
			continue;
		const Lemma *l = find_lemma(c.lemma);
		if (!l)
			throw std::logic_error("unsound check names no lemma: " + c.lemma);
		plan.checks.push_back(&c);
		const Policies pol = tx_autosize_with(c.policies);
		for (const auto &p : l->points(pol))
			if (check_matches(*l, c, p))
				plan.jobs.push_back({l, p, c.id, true});
	}
	return plan;
}

std::string exe_build_dir(const std::string &self) {
	std::error_code ec;
	const auto exe = std::filesystem::canonical(self.empty() ? "/proc/self/exe" : self, ec);
	if (ec)
		return ".";
	return exe.parent_path().parent_path().string();  // build/bin/niovcheck -> build
}

std::string options_key(const ProveOptions &o) {
	std::string k = "rules:";
	for (Preset p : o.presets)
		k += std::string(name(p)) + ",";
	if (!o.policy_overrides.empty())
		k += " policy:" + o.policy_overrides;
	k += " lemmas:";
	for (const auto &l : o.lemmas)
		k += l + ",";
	if (o.matrix)
		k += " matrix";
	return k;
}

std::optional<nlohmann::json> read_report(const std::string &path) {
	std::ifstream f(path);
	if (!f)
		return std::nullopt;
	try {
		return nlohmann::json::parse(f);
	} catch (const nlohmann::json::exception &) {
		return std::nullopt;  // a damaged report just means: run again
	}
}

// The report's folder must be writable before hours of proving are spent.
void check_report_path(const std::string &path) {
	std::error_code ec;
	const auto dir = std::filesystem::path(path).parent_path();
	if (!dir.empty())
		std::filesystem::create_directories(dir, ec);
	if (ec || (!dir.empty() && !std::filesystem::is_directory(dir)))
		throw ProveUsageError("--report: cannot create the folder of " + path);
}

void write_report(const std::string &path, const nlohmann::json &j) {
	std::ofstream f(path, std::ios::trunc);
	f << j.dump(1) << "\n";
	if (!f)
		throw ProveUsageError("cannot write the report " + path);
}

}  // namespace

int run_prove(const ProveOptions &in, std::FILE *out) {
	ProveOptions o = in;
	const std::string build = exe_build_dir(o.self_exe);
	// Every run keeps its own counterexamples: a folder per run.
	if (o.cex_dir.empty())
		o.cex_dir = build + "/prove-cex/" + run_id();
	if (o.report_path.empty())
		o.report_path = build + "/prove-report.json";
	if (o.source_dir.empty())
		o.source_dir = default_source_dir();
	if (o.timeout_ms == 0)
		throw ProveUsageError("--timeout-ms must be at least 1");
	if (o.jobs == 0)
		throw ProveUsageError("--jobs must be at least 1");

	check_report_path(o.report_path);
	const std::string fp = rules_fingerprint(o.source_dir);
	const std::string key = options_key(o);
	if (o.if_changed && !fp.empty()) {
		if (auto last = read_report(o.report_path)) {
			if (last->value("fingerprint", "") == fp && last->value("options", "") == key &&
			    last->value("ok", false)) {
				if (o.json)
					std::fputs((last->dump(2) + "\n").c_str(), out);
				else
					std::fprintf(out,
						     "prove: rules unchanged since the last run (fingerprint %s, %s): "
						     "skipped, last verdict: all as expected\n",
						     fp.c_str(), o.report_path.c_str());
				return 0;
			}
		}
	}

	const auto t0 = Clock::now();
	nlohmann::json report;
	bool ok = true;
	if (o.matrix) {
		const MatrixResult m = run_matrix(o);
		ok = m.ok;
		report = matrix_json(m);
		if (!o.json)
			print_matrix(out, m);
	} else {
		const Plan plan = make_plan(o);
		RunOptions ro;
		ro.jobs = o.jobs;
		ro.timeout_ms = o.timeout_ms;
		ro.smt2_dir = o.smt2_dir;
		ro.cex_dir = o.cex_dir;
		const auto results = run_jobs(plan.jobs, ro);
		const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
		Summary s = summarize(results, plan.checks, wall);
		s.not_applicable = plan.not_applicable;
		s.fingerprint = fp;
		for (Preset p : o.presets)
			s.rules.push_back(rules_label(p, o.policy_overrides));
		s.timeout_ms = o.timeout_ms;
		s.jobs = o.jobs;
		s.cli = o.self_exe.empty() ? "niovcheck" : o.self_exe;
		s.cex_dir = o.cex_dir;
		if (!o.promote_dir.empty())
			s.promoted = promote(results, o.promote_dir, o.self_exe);
		ok = s.ok;
		report = summary_json(s);
		if (!o.json)
			print_summary(out, s);
		if (o.enumerate) {
			const auto e = run_enumeration(o, results);
			ok = ok && e.ok;
			report["enumeration"] = enumeration_json(e);
			if (!o.json)
				print_enumeration(out, e);
		}
	}
	report["schema"] = "niovcheck-prove/1";
	report["fingerprint"] = fp;
	report["fingerprint_files"] = fingerprint_files(o.source_dir);
	report["options"] = key;
	report["ok"] = ok;
	if (o.json)
		std::fputs((report.dump(2) + "\n").c_str(), out);
	write_report(o.report_path, report);
	return ok ? 0 : 1;
}

}  // namespace niov::smt
