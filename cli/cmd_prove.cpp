// prove: the Z3 proofs (smt/): the lemma catalogue under the chosen rules,
// the unsound policy combinations, the soundness matrix.
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "catalogue.hpp"
#include "commands.hpp"
#include "plugin.hpp"
#include "prove.hpp"
#include "rules_opts.hpp"

namespace niov::cli {

namespace {

int list_lemmas() {
	std::printf("%-26s %-9s %s\n", "id", "expected", "statement / configuration domain");
	for (const auto &l : smt::catalogue())
		std::printf("%-26s %8.1fs %s\n%37s%s\n", l.id.c_str(), l.expected_s, l.statement.c_str(), "",
			    l.domain.c_str());
	for (const auto &c : smt::unsound_catalogue())
		std::printf("%-26s %9s %s\n%37s%s, policies %s (must be sat)\n", c.id.c_str(), "-",
			    c.statement.c_str(), "", c.lemma.c_str(), c.policies.c_str());
	return kExitClean;
}

}  // namespace

int cmd_prove(Args &args) {
	if (args.flag("list")) {
		args.done();
		return list_lemmas();
	}
	smt::ProveOptions o;
	for (std::string l; !(l = args.option("lemma", "")).empty();)
		o.lemmas.push_back(l);
	RulesRequest req = rules_request(args);
	const std::string impl = args.option("impl", "");
	if (req.rules == "all") {
		if (!req.policies.empty() || !impl.empty())
			throw UsageError("--rules all proves the presets as they are: no --policy or --impl with it");
		o.presets.assign(std::begin(kAllPresets), std::end(kAllPresets));
	} else {
		// The rules in force: flags, else what --impl's plugin declares,
		// else tx-autosize.
		const auto plugin = impl.empty() ? nullptr : std::make_unique<PluginImpl>(impl);
		if (req.rules.empty() && !plugin)
			req.rules = "tx-autosize";
		const RulesInForce r = resolve_rules(req, plugin.get());
		o.presets = {r.preset};
		o.policy_overrides = r.overrides();
	}
	o.json = args.flag("json");
	o.matrix = args.flag("matrix");
	o.enumerate = args.flag("enumerate");
	o.if_changed = args.flag("if-changed");
	o.smt2_dir = args.option("smt2-dir", "");
	o.cex_dir = args.option("cex-dir", "");
	o.promote_dir = args.option("promote", "");
	o.report_path = args.option("report", "");
	o.source_dir = args.option("source-dir", "");  // the tree the fingerprint hashes
	const uint64_t timeout = args.number("timeout-ms", 20000);
	const uint64_t jobs = args.number("jobs", 2);
	if (timeout == 0 || timeout > 3600000)
		throw UsageError("--timeout-ms: want 1..3600000");
	if (jobs == 0 || jobs > 64)
		throw UsageError("--jobs: want 1..64");
	o.timeout_ms = static_cast<unsigned>(timeout);
	o.jobs = static_cast<unsigned>(jobs);
	if (o.matrix && (o.enumerate || !o.promote_dir.empty() || !o.lemmas.empty()))
		throw UsageError("--matrix runs the whole catalogue: no --lemma, --enumerate or --promote");
	args.done();
	std::error_code ec;
	o.self_exe = std::filesystem::canonical("/proc/self/exe", ec).string();
	try {
		return smt::run_prove(o, stdout);
	} catch (const smt::ProveUsageError &e) {
		throw UsageError(e.what());
	}
}

}  // namespace niov::cli
