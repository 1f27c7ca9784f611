// The niovcheck subcommands.
#pragma once

#include <string>

#include "all.hpp"
#include "args.hpp"
#include "decode.hpp"
#include "rules_in_force.hpp"
#include "faults.hpp"

namespace niov::cli {

int cmd_replay(Args &args, bool explain);
int cmd_check(Args &args);
int cmd_simulate(Args &args);
// Engines, one file each (cmd_<name>.cpp): properties, fuzz corpus tools,
// proofs, the bug scoreboard.
int cmd_props(Args &args);
int cmd_corpus(Args &args);
int cmd_prove(Args &args);
int cmd_mutants(Args &args);
// Every libFuzzer target against every plugin (the nightly campaign).
int cmd_fuzz_campaign(Args &args);
int cmd_all(Args &args);
// all's options (the budget, engines, rules, outputs, work folder), for the
// commands that run all's engines: `kernel series`.
AllRequest all_request(Args &args);
int cmd_plugin(int argc, char **argv);
// Where `plugin build` takes the ABI headers, shim and common code from.
std::string plugin_sdk_dir();
int cmd_faults(Args &args);

// The fault-injection sweep over scenario files, for `niovcheck faults` and
// `niovcheck all`.  Throws UsageError on a file that does not parse.
struct FaultsRun {
	std::vector<FaultSweep> sweeps;
	size_t swept = 0;	 // scenarios whose bind was swept (the rest: not_run)
	uint64_t injected = 0;	 // failures injected
	uint64_t findings = 0;	 // violations
};
FaultsRun run_faults(PluginImpl &impl, const RulesInForce &rules, const std::vector<std::string> &files);
// A plugin from a kernel tree (cmd_kernel.cpp); takes argv itself for -o.
int cmd_kernel(int argc, char **argv);
// `kernel series`: a patch series checked patch by patch (cmd_series.cpp).
int cmd_kernel_series(Args &args);

// `corpus decode`: a fuzz input of target @t as a scenario file, pinned to
// @impl's rules when given (as the fuzz targets pin them under $NIOV_IMPL).
int corpus_decode(fuzz::Target t, const std::string &in, const std::string &out, const std::string &impl,
		  const RulesRequest &rules);

}  // namespace niov::cli
