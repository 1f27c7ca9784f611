#include "property.hpp"

#include "caps.hpp"

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
		add_rx_alloc_properties(v);
		add_resource_properties(v);
		add_fault_properties(v);
		return v;
	}();
	return all;
}

Needs property_needs(std::string_view name) {
	auto starts = [name](std::string_view p) { return name.substr(0, p.size()) == p; };
	constexpr uint32_t kTx = NIOV_CAP_TX, kRx = NIOV_CAP_RX, kZcrx = NIOV_CAP_ZCRX;
	if (starts("rx.alloc_"))
		return {kRx, NIOV_CAP_RX_ALLOC, false};
	if (starts("res."))
		return {kTx | kRx, 0, true};
	if (starts("fault."))
		return {kTx | kRx, NIOV_CAP_FAULTS, true};
	if (starts("lookup."))
		return {kTx, NIOV_CAP_LOOKUP, false};
	if (starts("frag.") || starts("skb.") || starts("tcp.") || starts("dev."))
		return {kTx, NIOV_CAP_FILL, false};
	if (starts("sizing."))
		return {kTx, 0, false};
	if (starts("bind."))
		return {kTx | kRx, 0, false};
	if (name == "rx.pp_order")
		return {kRx | kZcrx, 0, false};
	if (starts("rx."))
		return {kRx, 0, false};
	if (starts("zcrx."))
		return {kZcrx, 0, false};
	return {kTx | kRx | kZcrx, 0, false};
}

std::string not_runnable(const Property &p, const Target &t) {
	const Needs n = property_needs(p.name);
	if (n.resources && !t.has_resources())
		return "no implementation keeps resource counters";
	const uint32_t have = t.caps();
	if (n.any_dir && !(have & n.any_dir))
		return lacking(n.any_dir, have);
	return lacking(n.all, have);
}

const Property *find_property(std::string_view name) {
	for (const auto &p : all_properties())
		if (p.name == name)
			return &p;
	return nullptr;
}

}  // namespace niov::props
