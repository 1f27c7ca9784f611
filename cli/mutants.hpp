// The bug scoreboard: every broken variant against every engine.
//
// An engine is a function from a variant to a catch report.  Engines that
// are not built on this machine (the fuzzers need clang) say so instead of
// passing silently.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rules_in_force.hpp"
#include "worker.hpp"

namespace niov::cli {

struct Variant {
	std::string name;
	std::string path;	 // the plugin, absolute
	std::string description;
	std::string must_catch;	 // an invariant id, or "difference"; "" = anything the engines see
	std::string policy;	 // equivalent model policy overrides of its slip, if a rule change
	RulesRequest request;	 // the --rules / --policy the run was given
	RulesInForce rules;	 // what it is judged by (rules_in_force.hpp)
	// Did an engine's finding @invariant catch it?
	bool caught_by(const std::string &invariant) const {
		return must_catch.empty() ? !invariant.empty() : invariant == must_catch;
	}
};

// What one finding means for a variant, the same in every engine: the
// variant's must_catch (or, without one, any finding) is the catch, however
// it showed (a violation, a crash, an abi.* breach); a breach of the
// plugin's contract (worker::kFaultIds: a crash, hang, exit, leak or
// stdout write) that is not its declared slip is a fault.  Anything else
// was only noticed.
struct Judged {
	bool caught = false;
	bool fault = false;
};
Judged judge_finding(const Variant &v, const std::string &id);

struct MutantsOptions {
	std::string source_dir;	 // the repository (corpora/)
	std::string bin_dir;	 // build/bin
	std::string fuzz_bin_dir;  // the libFuzzer targets (the NIOV_FUZZ=ON clang build)
	std::string failure_dir;   // where caught cases are written as scenario files
	unsigned fuzz_seconds = 60;  // per target
	unsigned prop_cases = 0;     // per property; 0: the presubmit budget
	unsigned proof_timeout_ms = 20000;  // per query
	uint64_t seed = 1;
	worker::Limits limits;	// every plugin-driving job runs in a worker
};

struct Catch {
	bool ran = false;	  // false: engine not available here
	bool caught = false;	  // the must-catch invariant (or a difference) fired
	bool noticed = false;	  // something fired, maybe not the must-catch one
	bool fault = false;	  // the plugin crashed, hung, exited, printed or leaked
	double seconds = 0;	  // to the first catch, or the whole budget
	std::string invariant;	  // what fired first
	std::string replay;	  // one command that shows it
	std::string note;
};

struct Engine {
	std::string name;
	std::function<Catch(const Variant &, const MutantsOptions &)> run;
};

// The engines, in the order of the matrix; one file each (mutants_*.cpp).
const std::vector<Engine> &mutant_engines();

Catch replay_engine(const Variant &v, const MutantsOptions &opt);
Catch props_engine(const Variant &v, const MutantsOptions &opt);
Catch fuzz_engine(const Variant &v, const MutantsOptions &opt);
Catch proof_engine(const Variant &v, const MutantsOptions &opt);

}  // namespace niov::cli
