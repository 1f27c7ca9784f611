// The fault-injection sweep (RULES.md "Fault injection"): for a plugin with
// NIOV_CAP_FAULTS, for each bind scenario and each fault kind, count the
// calls of that kind one bind makes, then fail each of them in turn.  The
// failed bind must return an errno the kernel gives for a failure at that
// kind of step (fault.errno) and leave nothing behind: no allocation,
// dma-buf reference, mapping or reference, no WARN (res.*).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin.hpp"
#include "rules_in_force.hpp"
#include "report.hpp"

namespace niov {

// "alloc", "dmabuf_get", "dmabuf_attach", "dmabuf_map", "queue_restart",
// "id_alloc".
std::string_view fault_kind_name(uint32_t kind);

// The errnos a bind may return when the Nth call of @kind fails, under the
// rules of @sc (see niov_impl.h for what each injected failure looks like).
std::vector<int> fault_errnos(const Scenario &sc, uint32_t kind);

struct FaultPoint {
	uint32_t kind = 0;
	uint64_t nth = 0;  // the failed call, 1-based
	int err = 0;	   // what the bind returned
};

struct FaultSweep {
	std::string scenario;
	std::string not_run;			  // why nothing was swept, else ""
	uint64_t calls[NIOV_FAULT_COUNT_] = {};	  // per kind, of one bind without faults
	std::vector<FaultPoint> points;		  // every injected failure
	std::vector<Violation> violations;	  // step = index into points + 1
	// Violations the scenario's inputs explain (findings.hpp: a lying
	// exporter's WARN at unbind, say): reported, not counted.
	std::vector<Violation> known;
	bool clean() const { return violations.empty(); }
};

// Which of the @calls calls of @kind one bind makes to fail (1-based);
// unset: every one of them.
using FaultPick = std::function<std::vector<uint64_t>(uint32_t kind, uint64_t calls)>;

// One scenario's bind, swept, judged under @rules (the run's rules in force,
// as every engine resolves them: rules_in_force.hpp).  The engines fail
// every call; a property over many cases may @pick a few per case.
FaultSweep sweep_faults(const Scenario &sc, PluginImpl &impl, const RulesInForce &rules,
			const FaultPick &pick = nullptr);

}  // namespace niov
