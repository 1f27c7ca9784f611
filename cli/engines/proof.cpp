// Engine "proof": the lemma catalogue under the rules in force (Z3).  It
// speaks about the rules, never the plugin's code.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalogue.hpp"
#include "engines/engine.hpp"
#include "hunt.hpp"
#include "proof_cache.hpp"
#include "prove.hpp"
#include "replay_command.hpp"
#include "scenario.hpp"
#include "whole_file.hpp"
#include "work_dir.hpp"

namespace niov::cli {

// Its parts, named after it: a unity build compiles the engines as one file.
namespace proof_parts {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

EngineResult run(const EngineInput &in, const Progress &p) {
	EngineResult r;
	r.name = "proof";
	const auto t0 = Clock::now();
	smt::ProveOptions o;
	o.presets = {in.rules.preset};
	o.policy_overrides = in.rules.overrides();
	std::set<std::string> families;
	for (const auto &l : smt::catalogue())
		families.insert(l.family);
	o.lemmas.assign(families.begin(), families.end());  // the catalogue, not the unsound checks
	o.json = true;
	o.timeout_ms = in.proof_timeout_ms;
	o.jobs = 2;
	o.cex_dir = in.work + "/proof/cex";
	o.report_path = in.work + "/proof/report.json";
	o.self_exe = in.niovcheck;
	// Proofs depend on what they prove, not on the plugin: a passing result
	// for the same rules, lemmas, sources and solver is taken as it is
	// (the nightly budget and --no-cache always prove again).
	const ProofKey key = proof_key(in.req.source_dir, in.rules.label(), o.lemmas, o.timeout_ms);
	const bool reuse = in.req.proof_cache && in.req.budget != Budget::nightly;
	const std::optional<std::string> kept = reuse ? proof_cache_read(key) : std::nullopt;
	std::string text;
	if (kept) {
		text = *kept;
	} else {
		p.at("prove " + in.rules.label());
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
			const fs::path copy = fs::path(in.work) / "proof" / fs::path(file).filename();
			const std::string cex = fmt::format("# niovcheck all: counterexample to {} under {}\n", ob.what,
							    in.rules.label()) +
						serialize_scenario(sc);
			if (const std::string err = write_whole_file(copy.string(), cex); !err.empty())
				throw std::runtime_error(fmt::format("{}: cannot write: {}", copy.string(), err));
			ob.scenario = copy.string();
			break;
		}
		ob.replay = !ob.scenario.empty()
				    ? in.replay_command(ob.scenario, true)
				    : fmt::format("{} prove --lemma {} {}", in.niovcheck, ob.what, in.rules.flags());
		r.observations.push_back(std::move(ob));
	}
	r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
	r.runs = fmt::format("{} configurations, {} queries", j.value("configs", 0), j.value("queries", 0));
	if (kept)
		r.runs += fmt::format(" (cached, fingerprint {})", key.hash);
	else if (!failed)
		proof_cache_write(key, text);
	r.note = failed ? fmt::format("{} lemmas not proved", failed) : "";
	r.status = failed ? EngineStatus::finding : EngineStatus::ok;
	return r;
}

// The scoreboard: a variant that is a rule change (its plugin names the
// policy overrides it equals) is proved against the lemma catalogue; a
// confirmed counterexample is the catch.  Variants that change code but not
// a rule are outside what the proofs speak about: n/a.
Catch hunt(const EngineInput &in, const Variant &v) {
	Catch c;
	// The slip as a rule change, else the rules in force when they change
	// tx-autosize's (a declared rule change is proved like a slip).
	std::string policy = v.policy;
	if (policy.empty() && v.rules.preset == Preset::tx_autosize)
		policy = v.rules.overrides();
	if (policy.empty()) {
		c.note = "the variant is not a rule change (no policy in its plugin), so the proofs do not speak about it";
		return c;
	}
	c.ran = true;
	const auto h = smt::hunt_policy(policy, v.must_catch, in.work + "/prove-" + safe_component(v.name),
					in.proof_timeout_ms);
	c.seconds = h.seconds;
	c.note = h.note;
	if (!h.found)
		return c;
	c.noticed = true;
	c.invariant = h.invariant;
	for (const auto &x : h.violations)
		c.caught |= v.caught_by(x);
	c.caught |= v.caught_by(h.invariant);
	c.replay = h.scenario.empty() ? "niovcheck prove --lemma " + h.lemma
				      : replay_command_line(in.niovcheck, h.scenario, "", "");
	return c;
}

}  // namespace proof_parts

Engine proof_engine() {
	return {.name = "proof", .run = proof_parts::run, .hunt = proof_parts::hunt,
		.timeout = [](const EngineInput &) { return 900u; },
		.judges_code = false};
}

}  // namespace niov::cli
