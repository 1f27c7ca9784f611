#include "prove_output.hpp"

#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "enumerate.hpp"

namespace niov::smt {

namespace {

bool is_cex(const JobResult &r) { return r.out.verdict == Verdict::counterexample; }

nlohmann::json result_json(const JobResult &r) {
	nlohmann::json j{{"point", r.label},	   {"verdict", std::string(name(r.out.verdict))},
			 {"status", r.status},	   {"ok", r.ok},
			 {"shared", r.shared},	   {"z3_cpu_s", r.out.cpu_seconds},
			 {"z3_wall_s", r.out.seconds}, {"goals", r.out.goal_cpu_seconds.size()}};
	nlohmann::json queries = nlohmann::json::array();
	for (size_t i = 0; i < r.out.smt2_files.size(); ++i) {
		const bool failed = r.out.verdict != Verdict::proved && i == r.out.failed_goal;
		queries.push_back({{"file", r.out.smt2_files[i]},
				   {"expect", failed ? (is_cex(r) ? "sat" : "unknown") : "unsat"},
				   {"z3_cpu_s", i < r.out.goal_cpu_seconds.size() ? r.out.goal_cpu_seconds[i] : 0.0}});
	}
	j["queries"] = queries;
	if (!r.out.reason.empty())
		j["reason"] = r.out.reason;
	if (is_cex(r)) {
		nlohmann::json m = nlohmann::json::object();
		for (size_t i = 0; i < r.out.model.vars.size(); ++i)
			m[r.out.model.vars[i].name] = r.out.model.values[i];
		j["model"] = m;
		j["confirmed_concretely"] = r.out.confirmed;
		if (r.cex.has_scenario) {
			j["scenario"] = r.cex.file;
			j["replay_violations"] = r.cex.violations;
			j["replay_confirms"] = r.cex.confirmed;
			j["known_finding"] = r.cex.known_finding;
		}
	}
	return j;
}

std::string seconds(double s) { return s < 0.01 ? fmt::format("{:.3f}", s) : fmt::format("{:.2f}", s); }

}  // namespace

Summary summarize(const std::vector<JobResult> &results, const std::vector<const UnsoundCheck *> &checks,
		  double wall_s) {
	Summary s;
	s.results = &results;
	s.wall_s = wall_s;
	std::map<std::pair<std::string, std::string>, size_t> at;
	for (const auto &r : results) {
		const auto k = std::make_pair(r.job.group, r.job.lemma->id);
		auto [it, fresh] = at.emplace(k, s.rows.size());
		if (fresh) {
			LemmaRow row;
			row.group = r.job.group;
			row.lemma = r.job.lemma;
			for (const auto *c : checks)
				if (c->id == r.job.group)
					row.check = c;
			s.rows.push_back(row);
		}
		LemmaRow &row = s.rows[it->second];
		row.results.push_back(&r);
		++s.configs;
		if (r.shared) {
			++s.shared;
		} else {
			++s.queries;
			row.cpu_s += r.out.cpu_seconds;
			s.cpu_s += r.out.cpu_seconds;
		}
		if (!r.ok)
			++row.failed;
		else if (r.out.verdict == Verdict::proved)
			++row.proved;
		else if (r.job.expect_cex)
			++row.expected_cex;
		else
			++row.known;
	}
	for (auto &row : s.rows) {
		if (row.check) {
			// An unsound combination: at least one replayed counterexample.
			row.ok = row.failed == 0 && row.expected_cex > 0;
			row.verdict = row.ok ? "counterexample (expected)"
					     : row.failed ? "FAILED" : "FAILED: proved, a counterexample was expected";
		} else {
			row.ok = row.failed == 0;
			row.verdict = row.failed ? "FAILED" : row.known ? "proved (counterexample: known finding)" : "proved";
		}
		if (row.failed) {
			for (const auto *r : row.results)
				if (!r->ok) {
					row.verdict = "FAILED: " + r->status;
					break;
				}
		}
		s.ok = s.ok && row.ok;
	}
	// A check with no configuration at all never ran: that is a failure too.
	for (const auto *c : checks) {
		bool seen = false;
		for (const auto &row : s.rows)
			seen |= row.check == c;
		if (!seen)
			s.ok = false;
	}
	return s;
}

nlohmann::json summary_json(const Summary &s) {
	nlohmann::json rows = nlohmann::json::array();
	for (const auto &row : s.rows) {
		nlohmann::json res = nlohmann::json::array();
		for (const auto *r : row.results)
			res.push_back(result_json(*r));
		nlohmann::json j{{"id", row.check ? row.check->id : row.lemma->id},
				 {"lemma", row.lemma->id},
				 {"group", row.group},
				 {"family", row.lemma->family},
				 {"invariant", std::string(id(row.lemma->inv))},
				 {"statement", row.check ? row.check->statement : row.lemma->statement},
				 {"domain", row.lemma->domain},
				 {"expected_s", row.lemma->expected_s},
				 {"verdict", row.verdict},
				 {"ok", row.ok},
				 {"configs", row.results.size()},
				 {"proved", row.proved},
				 {"known_findings", row.known},
				 {"expected_counterexamples", row.expected_cex},
				 {"failed", row.failed},
				 {"z3_cpu_s", row.cpu_s},
				 {"results", res}};
		if (row.check)
			j["policies"] = row.check->policies;
		rows.push_back(j);
	}
	for (const auto &na : s.not_applicable)
		rows.push_back({{"id", na.lemma->id},
				{"lemma", na.lemma->id},
				{"group", na.group},
				{"family", na.lemma->family},
				{"invariant", std::string(id(na.lemma->inv))},
				{"verdict", "not applicable: " + na.why},
				{"ok", true},
				{"not_applicable", true},
				{"configs", 0}});
	return {{"rules", s.rules},   {"timeout_ms", s.timeout_ms}, {"jobs", s.jobs},
		{"lemmas", rows},     {"configs", s.configs},	   {"queries", s.queries},
		{"shared", s.shared}, {"z3_cpu_s", s.cpu_s},	   {"wall_s", s.wall_s},
		{"promoted", s.promoted}, {"cex_dir", s.cex_dir}};
}

void print_summary(std::FILE *out, const Summary &s) {
	std::string rules;
	for (const auto &r : s.rules)
		rules += (rules.empty() ? "" : ", ") + r;
	std::fprintf(out, "niovcheck prove: rules %s; fingerprint %s; %u jobs; timeout %u ms per query\n\n",
		     rules.c_str(), s.fingerprint.empty() ? "unavailable" : s.fingerprint.c_str(), s.jobs,
		     s.timeout_ms);
	std::fprintf(out, "%-28s %-12s %7s  %-40s %8s %8s\n", "lemma", "rules", "configs", "verdict", "z3 cpu",
		     "expected");
	for (const auto &row : s.rows) {
		const std::string idcol = row.check ? row.check->id : row.lemma->id;
		const std::string group = row.check ? "tx-autosize+" : row.group;
		std::string verdict = row.verdict;
		if (row.known)
			verdict += fmt::format(" [{}]", row.known);
		std::fprintf(out, "%-28s %-12s %7zu  %-40s %7ss %7ss\n", idcol.c_str(), group.c_str(),
			     row.results.size(), verdict.c_str(), seconds(row.cpu_s).c_str(),
			     row.check ? "-" : seconds(row.lemma->expected_s).c_str());
	}
	// Lemmas an era has nothing to say about: one line per preset.
	std::map<std::string, std::pair<unsigned, std::string>> na;
	for (const auto &x : s.not_applicable) {
		++na[x.group].first;
		na[x.group].second = x.why;
	}
	for (const auto &[group, n] : na)
		std::fprintf(out, "%-28s %-12s %7u  not applicable: %s\n", "(other families)", group.c_str(), n.first,
			     n.second.c_str());
	// Every counterexample: where, the model, its scenario and what the replay
	// said; known findings and expected ones once per row, with a count.
	bool header = false;
	std::set<std::string> files;
	for (const auto &row : s.rows) {
		unsigned more = 0;
		bool shown = false;
		for (const auto *r : row.results) {
			if (r->out.verdict == Verdict::proved)
				continue;
			if (!r->cex.file.empty() && !files.insert(r->cex.file).second)
				continue;
			if (r->ok && shown) {
				++more;
				continue;
			}
			shown = shown || r->ok;
			if (!header) {
				std::fprintf(out, "\ncounterexamples and failures:\n");
				header = true;
			}
			std::fprintf(out, "  %s %s [%s]: %s\n", row.check ? row.check->id.c_str() : row.lemma->id.c_str(),
				     r->label.c_str(), row.group.c_str(), r->status.c_str());
			if (r->out.verdict == Verdict::counterexample) {
				std::fprintf(out, "    model: %s\n", r->out.model.to_string().c_str());
				if (r->cex.has_scenario && !r->cex.file.empty())
					std::fprintf(out, "    replay: %s replay %s%s\n", s.cli.c_str(), r->cex.file.c_str(),
						     r->cex.confirmed ? "" : "  (its replay does not show the lemma's invariant)");
				else if (r->cex.has_scenario)
					std::fprintf(out, "    replay: (scenario not written)\n");
			}
		}
		if (more)
			std::fprintf(out, "    ... and %u more configurations like it\n", more);
	}
	for (const auto &p : s.promoted)
		std::fprintf(out, "promoted: %s\n", p.c_str());
	if (!s.cex_dir.empty() && header)
		std::fprintf(out, "this run's counterexamples: %s\n", s.cex_dir.c_str());
	std::fprintf(out,
		     "\n%zu lemma rows, %u configurations, %u queries solved (%u shared); Z3 cpu %.2f s, wall "
		     "%.2f s: %s\n",
		     s.rows.size(), s.configs, s.queries, s.shared, s.cpu_s, s.wall_s,
		     s.ok ? "all as expected" : "FAILED");
}

EnumReport run_enumeration(const ProveOptions &, const std::vector<JobResult> &results) {
	EnumReport e;
	std::set<std::string> done;
	for (const auto &r : results) {
		if (r.job.expect_cex || r.shared || !done.insert(r.job.lemma->id).second)
			continue;
		EnumRow row;
		row.lemma = r.job.lemma->id;
		row.label = r.label;
		row.z3_cpu_s = r.out.cpu_seconds;
		row.z3_proved = r.out.verdict == Verdict::proved;
		const EnumResult x = enumerate(*r.job.lemma, r.job.point, uint64_t{1} << 24);
		row.cases = x.cases;
		row.in_domain = x.in_domain;
		row.failures = x.failures;
		row.truncated = x.truncated;
		row.enum_cpu_s = x.cpu_seconds;
		row.input_bits = x.input_bits;
		row.reduced_log2 = x.reduced_log2;
		row.first_failure = x.first_failure;
		// Brute force must never find what Z3 proved impossible.
		if (row.z3_proved && row.failures)
			e.ok = false;
		e.rows.push_back(row);
	}
	return e;
}

nlohmann::json enumeration_json(const EnumReport &e) {
	nlohmann::json rows = nlohmann::json::array();
	for (const auto &r : e.rows)
		rows.push_back({{"lemma", r.lemma},
				{"point", r.label},
				{"z3_cpu_s", r.z3_cpu_s},
				{"z3_proved", r.z3_proved},
				{"enum_cases", r.cases},
				{"enum_in_domain", r.in_domain},
				{"enum_failures", r.failures},
				{"enum_truncated", r.truncated},
				{"enum_cpu_s", r.enum_cpu_s},
				{"ratio_enum_over_z3", r.z3_cpu_s > 0 ? r.enum_cpu_s / r.z3_cpu_s : 0.0},
				{"input_bits", r.input_bits},
				{"reduced_domain_log2", r.reduced_log2}});
	return {{"rows", rows}, {"ok", e.ok}};
}

void print_enumeration(std::FILE *out, const EnumReport &e) {
	std::fprintf(out,
		     "\nZ3 over the full input space vs exhaustive enumeration (concrete words) over a reduced "
		     "domain, first configuration of each lemma:\n");
	std::fprintf(out, "%-24s %-34s %8s %6s %12s %8s %9s %9s  %s\n", "lemma", "configuration", "z3 cpu",
		     "bits", "enum cases", "enum cpu", "enum/z3", "2^bits/s", "");
	for (const auto &r : e.rows) {
		const double rate = r.enum_cpu_s > 0 ? static_cast<double>(r.cases) / r.enum_cpu_s : 0;
		// How long enumerating the whole space at this rate would take, as log10 seconds.
		const double full_log10 =
			rate > 0 ? static_cast<double>(r.input_bits) * std::log10(2.0) - std::log10(rate) : 0;
		std::fprintf(out, "%-24s %-34.34s %7ss %6u %12llu %7ss %9.2f %9s  %s\n", r.lemma.c_str(),
			     r.label.c_str(), seconds(r.z3_cpu_s).c_str(), r.input_bits,
			     static_cast<unsigned long long>(r.cases), seconds(r.enum_cpu_s).c_str(),
			     r.z3_cpu_s > 0 ? r.enum_cpu_s / r.z3_cpu_s : 0.0, fmt::format("1e{:.0f}", full_log10).c_str(),
			     r.z3_proved && r.failures ? ("CONTRADICTS THE PROOF: " + r.first_failure).c_str()
			     : r.truncated		 ? "(truncated)"
							 : "");
	}
	std::fprintf(out, "(2^bits/s: seconds brute force would need for the full input space at the measured rate)\n");
}

}  // namespace niov::smt
