// niovcheck all: every engine on one plugin or kernel tree, one verdict
// (cli/all.hpp).
#include <cstdio>
#include <sstream>

#include <fmt/format.h>

#include "all.hpp"
#include "commands.hpp"
#include "rules_opts.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

AllRequest all_request(Args &args) {
	AllRequest req;
	req.impl = args.option("impl", "");
	req.kernel = args.option("kernel", "");
	req.rules = rules_request(args);
	const std::string budget = args.option("budget", "presubmit");
	if (budget == "presubmit")
		req.budget = Budget::presubmit;
	else if (budget == "nightly")
		req.budget = Budget::nightly;
	else
		throw UsageError(fmt::format("--budget '{}': want presubmit or nightly", budget));
	req.json = args.flag("json");
	req.tap = args.flag("tap");
	req.summary = args.flag("summary");
	req.quiet = args.flag("quiet");
	req.junit = args.option("junit", "");
	req.seed = args.number("seed", 1);
	req.cases = args.number("cases", 0);
	req.fuzz_seconds = static_cast<unsigned>(args.number("fuzz-seconds", 0));
	req.proof_timeout_ms = static_cast<unsigned>(args.number("proof-timeout-ms", 0));
	req.jobs = static_cast<unsigned>(args.number("jobs", 0));
	const std::string engines = args.option("engines", "");
	for (std::istringstream in(engines); in.good();) {
		std::string e;
		std::getline(in, e, ',');
		if (!e.empty())
			req.engines.push_back(e);
	}
	req.build_fuzz = !args.flag("no-build-fuzz");
	req.proof_cache = !args.flag("no-cache");
	req.asan = args.flag("asan");
	req.source_dir = args.option("source-dir", NIOV_SOURCE_DIR);
	req.fuzz_bin_dir = args.option("fuzz-build", "");
	if (!req.fuzz_bin_dir.empty())
		req.fuzz_bin_dir += "/bin";
	req.work_dir = args.option("work-dir", "");
	req.limits = worker_limits(args);
	if (req.json + req.tap + req.summary > 1)
		throw UsageError("--json, --tap and --summary: pick one for stdout (--junit FILE goes with any)");
	if (req.cases > INT32_MAX)
		throw UsageError("--cases must be 1..2147483647");
	return req;
}

int cmd_all(Args &args) {
	AllRequest req = all_request(args);
	if (!args.positional().empty())
		throw UsageError("all takes no file arguments (--impl PATH or --kernel DIR)");
	args.done();
	if (req.asan && req.kernel.empty())
		throw UsageError("--asan builds a kernel tree with ASan + UBSan: it goes with --kernel DIR "
				 "(a plugin of your own: niovcheck plugin build --asan)");
	return run_all(req, stdout);
}

}  // namespace niov::cli
