// The bug scoreboard: every broken variant against every engine that has a
// hunt (engines/engine.hpp): does it catch the variant's declared slip?
// Engines that are not built on this machine (the fuzzers need clang) say
// so instead of passing silently.
#pragma once

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

}  // namespace niov::cli
