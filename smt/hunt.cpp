#include "hunt.hpp"

#include <chrono>
#include <filesystem>
#include <sstream>

#include "catalogue.hpp"
#include "counterexample.hpp"
#include "findings.hpp"
#include "prove.hpp"
#include "runner.hpp"

namespace niov::smt {

Policies tx_autosize_with(const std::string &overrides) { return preset_with(Preset::tx_autosize, overrides); }

Policies preset_with(Preset preset, const std::string &overrides) {
	Policies pol = preset_policies(preset);
	std::istringstream in(overrides);
	for (std::string kv; in >> kv;) {
		const size_t eq = kv.find('=');
		if (eq == std::string::npos || !apply_policy(pol, kv.substr(0, eq), kv.substr(eq + 1)))
			throw ProveUsageError("policy override '" + kv + "': not a known key=value");
	}
	return pol;
}

namespace {

// findings.hpp explains every violation of a scenario that overrides
// policies (a partial series is the proofs' business); here the override is
// the variant under test, so ask with the preset's own policies.
bool explained_without_policies(const std::string &text, Inv inv) {
	auto parsed = parse_scenario(text, "counterexample");
	if (!parsed.scenario)
		return false;
	Scenario sc = *parsed.scenario;
	sc.cfg.policy = preset_policies(sc.cfg.preset);
	return is_known_finding(sc, inv);
}

// A counterexample counts when the concrete rules confirm it and, if the
// lemma has a scenario form, the model's replay shows the violation; device
// limits the model already knows (findings.hpp) hold under the sound rules
// too and say nothing about the variant.  Scenarios are built here, one at a
// time, not for every refuted configuration: a rule change can refute
// hundreds, each a multi-megabyte send to replay.
bool counts(JobResult &r, const std::string &cex_dir) {
	if (r.out.verdict != Verdict::counterexample || !r.out.confirmed)
		return false;
	const Lemma &l = *r.job.lemma;
	r.cex = counterexample_report(l, r.job.point, r.out.model,
				      {std::string(kCexHeader + 2) + " " + l.id + ": " + l.statement,
				       "configuration: " + r.label + " (a broken variant's policies)",
				       "model: " + r.out.model.to_string(), "written by niovcheck mutants"},
				      false);
	if (!r.cex.has_scenario)
		return true;
	if (!r.cex.confirmed || (r.cex.known_finding && explained_without_policies(r.cex.text, l.inv)))
		return false;
	write_counterexample(r.cex, cex_dir, file_stem("variant." + l.id, r.label));
	return true;
}

}  // namespace

PolicyHunt hunt_policy(const std::string &overrides, const std::string &want, const std::string &cex_dir,
		       unsigned timeout_ms) {
	const auto t0 = std::chrono::steady_clock::now();
	const Policies pol = tx_autosize_with(overrides);
	// Two rounds: the lemmas that state @want, then the rest.
	std::vector<Job> first, rest;
	for (const auto &l : catalogue())
		for (const auto &p : l.points(pol))
			(id(l.inv) == want ? first : rest).push_back({&l, p, "variant", false});

	PolicyHunt h;
	std::error_code ec;
	std::filesystem::create_directories(cex_dir, ec);
	RunOptions ro;
	ro.timeout_ms = timeout_ms;
	ro.scenarios = false;
	unsigned unknown = 0;
	for (const auto *round : {&first, &rest}) {
		if (round->empty())
			continue;
		auto results = run_jobs(*round, ro);
		h.queries += static_cast<unsigned>(results.size());
		for (const auto &r : results)
			unknown += r.out.verdict == Verdict::unknown;
		// A counterexample that replays as a scenario first: it is the one
		// a developer can run.
		for (const bool with_scenario : {true, false}) {
			for (auto &r : results) {
				if (h.found || (r.job.lemma->scenario != nullptr) != with_scenario || !counts(r, cex_dir))
					continue;
				h.found = true;
				h.lemma = r.job.lemma->id;
				h.invariant = std::string(id(r.job.lemma->inv));
				h.scenario = r.cex.file;
				h.violations = r.cex.violations;
			}
		}
		if (h.found)
			break;
	}
	if (unknown)
		h.note = std::to_string(unknown) + " queries without a verdict (timeout or unknown)";
	h.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return h;
}

}  // namespace niov::smt
