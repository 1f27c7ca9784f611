#include "property.hpp"

namespace niov::props {

const std::vector<Property> &all_properties() {
	static const std::vector<Property> all = [] {
		std::vector<Property> v;
		add_sizing_properties(v);
		add_bind_properties(v);
		add_lookup_properties(v);
		add_frag_properties(v);
		add_device_properties(v);
		add_tcp_properties(v);
		add_diff_properties(v);
		return v;
	}();
	return all;
}

const Property *find_property(std::string_view name) {
	for (const auto &p : all_properties())
		if (p.name == name)
			return &p;
	return nullptr;
}

}  // namespace niov::props
