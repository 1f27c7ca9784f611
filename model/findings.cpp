#include "findings.hpp"

namespace niov {

bool exporter_lies(const Scenario &sc) {
	uint64_t total = 0;
	for (const auto &s : sc.segs) {
		if (total + s.len < total)
			return true;
		total += s.len;
	}
	return total != sc.dmabuf_size;
}

bool policies_overridden(const Scenario &sc) {
	return !sc.cfg.rules_declared && !(sc.cfg.policy == preset_policies(sc.cfg.preset));
}

bool is_known_finding(const Scenario &sc, Inv inv) {
	if (policies_overridden(sc))
		return true;
	if (inv == Inv::bind_sg_covers_dmabuf)
		return exporter_lies(sc);
	// Devices: fbnic drops frags past 64 KiB whatever the rules; bnxt's
	// 16-bit BD wraps unless the series' 32 KiB cap (or a cap a scenario set
	// below 64 KiB) applies; descriptor budgets (gve per segment, bnxt
	// TX_MAX_FRAGS) depend on how the application chunks its sends.
	const Device dev = sc.cfg.device;
	if (inv == Inv::dev_desc_len_exact)
		return dev == Device::fbnic ||
		       (dev == Device::bnxt && (sc.cfg.policy.max_frag == MaxFrag::none ||
						sc.cfg.device_tx_max_frag() > 0xffff));
	if (inv == Inv::dev_desc_count)
		return dev == Device::gve || dev == Device::bnxt;
	return false;
}

bool is_known_finding(const Scenario &sc, std::string_view invariant_id) {
	for (const auto &i : kInvariants)
		if (i.id == invariant_id)
			return is_known_finding(sc, i.inv);
	return false;
}

}  // namespace niov
