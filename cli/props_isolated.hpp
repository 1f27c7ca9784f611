// The property checks in forked workers: one worker runs properties one
// after another and reports each as it finishes; a plugin that crashes,
// exits or prints costs the property it was in (a finding, with the case
// that was running written as a scenario file) and the next property runs
// in a fresh worker.  One that hangs would hang the rest too: they are
// reported as not run (failed).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runner.hpp"
#include "target.hpp"
#include "worker.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

struct IsolatedProperty {
	props::Outcome outcome;		       // passed is false when there is a finding
	std::vector<WorkerFinding> findings;  // the plugin's faults and leaks in this property
	bool run = true;		       // false: not run after the plugin hung
};

struct PropsRun {
	std::vector<const props::Property *> order;
	bool stop_at_failure = false;  // first_failure: stop after the first failing property
	std::function<void(const IsolatedProperty &)> each;  // each row as it comes
};

std::vector<IsolatedProperty> run_properties_isolated(const PropsRun &run, const props::LoadedTarget &lt,
						      const props::RunParams &rp, const worker::Limits &lim);

// props::first_failure in workers.
std::optional<IsolatedProperty> first_failure_isolated(const props::LoadedTarget &lt, const std::string &first,
						       const props::RunParams &rp, const worker::Limits &lim,
						       double &seconds);

}  // namespace niov::cli
