// What the engines report when a job's worker did not come back clean (a
// crash, a hang, an exit, stdout output, a sanitizer report) or its plugin
// kept memory: one finding naming the plugin, the operation, the job (the
// scenario, property or case) and what happened, with one replay command.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "plugin.hpp"
#include "worker.hpp"

namespace niov::cli {

struct WorkerFinding {
	std::string id;	    // "plugin.signal", "plugin.leak", ... (worker::kFaultIds)
	std::string what;   // "killed by SIGSEGV in fill"
	std::string where;  // "in fill of P, scenario F, step 3 (line 7)"
	std::string replay;
};

// The finding of a job that did not come back clean; nullopt when it did.
// Throws LimitError (bad input, exit 2) for a job whose input went past a
// documented limit: that is no finding on the code.
std::optional<WorkerFinding> worker_finding(const worker::Outcome &o, const std::string &replay);
WorkerFinding leak_finding(const PluginImpl::Leak &l, const std::string &plugin, const std::string &where,
			   const std::string &replay);

nlohmann::json to_json(const WorkerFinding &f);
std::optional<WorkerFinding> finding_from_json(const nlohmann::json &j);
// "FINDING plugin.signal: killed by SIGSEGV in fill (in fill of P, ...)\n  replay: ...\n"
std::string to_text(const WorkerFinding &f);

// --op-timeout S, --job-timeout S, --no-worker over $NIOV_OP_TIMEOUT,
// $NIOV_JOB_TIMEOUT, $NIOV_NO_WORKER over @defaults.
worker::Limits worker_limits(Args &args, worker::Limits defaults = {});

// This executable, absolute, for replay commands.
std::string self_exe();
// @path made absolute (replay commands must work from any directory).
std::string absolute(const std::string &path);
// replay_command_line for this executable, @file and @plugin made absolute.
std::string replay_command(const std::string &file, const std::string &plugin, const std::string &flags = "");

}  // namespace niov::cli
