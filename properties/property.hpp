// The property set: one property per invariant id (plus the model-vs-
// implementation differential), each a RapidCheck property body that
// generates its own cases for a target.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "target.hpp"

namespace niov::props {

struct Property {
	std::string name;	// the invariant id it checks
	std::string statement;	// what a failure means, one line
	std::function<void(const Target &)> body;
};

const std::vector<Property> &all_properties();
const Property *find_property(std::string_view name);

// The paths a property's cases go through (NIOV_CAP_*): one of @any_dir,
// all of @all, and resource counters.
struct Needs {
	uint32_t any_dir = 0;
	uint32_t all = 0;
	bool resources = false;
};
Needs property_needs(std::string_view name);
// Why @p cannot run against @t ("plugin lacks TX"), "" when it can.  A
// property that cannot run is reported as not run, never as a pass.
std::string not_runnable(const Property &p, const Target &t);

// Each file of properties adds its own.
void add_sizing_properties(std::vector<Property> &out);
void add_bind_properties(std::vector<Property> &out);
void add_lookup_properties(std::vector<Property> &out);
void add_frag_properties(std::vector<Property> &out);
void add_device_properties(std::vector<Property> &out);
void add_tcp_properties(std::vector<Property> &out);
void add_diff_properties(std::vector<Property> &out);
void add_rx_alloc_properties(std::vector<Property> &out);
void add_resource_properties(std::vector<Property> &out);
void add_fault_properties(std::vector<Property> &out);

}  // namespace niov::props
