// A plugin that answered outside the ABI's contract in a way no invariant
// can judge (a bind that succeeds without a binding, a fill that wrote
// outside its frag array): the run of the scenario or case stops there and
// the engine reports it as a finding of its own.
#pragma once

#include <stdexcept>
#include <string>

namespace niov {

struct PluginFault : std::runtime_error {
	PluginFault(std::string id_, std::string op_, const std::string &what)
		: std::runtime_error(what), id(std::move(id_)), op(std::move(op_)) {}
	std::string id;	 // "abi.null_binding", "abi.frags_outside"
	std::string op;	 // the plugin call
};

}  // namespace niov
