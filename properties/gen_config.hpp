// Configurations: every page size, MAX_SKB_FRAGS 17..45, every device
// profile, every rule preset and (for the model alone) every single-policy
// override.
#pragma once

#include <optional>
#include <vector>

#include <rapidcheck.h>

#include "config.hpp"

namespace niov::props {

// What one property run may generate.
struct ConfigSpace {
	std::vector<Preset> presets{Preset::baseline, Preset::net_next, Preset::tx_autosize};
	// Override one policy of the preset in some cases (only when nothing
	// but the model answers: a plugin is one fixed set of policies).
	bool overrides = false;
	// Hunting an unsound combination: every case uses exactly these.
	std::optional<Policies> forced;
	// The rules in force declare these policies (--policy, ops->policy):
	// every case uses them, marked as the rules under test (not a partial
	// series, so they excuse no violation).
	std::optional<Policies> declared;
	std::vector<Device> devices{Device::none, Device::mlx5, Device::gve, Device::fbnic,
				    Device::bnxt};
};

// The seven single-policy overrides of a preset that change something,
// as "key=value" strings (what a scenario's policy line says).
std::vector<std::pair<std::string, std::string>> single_overrides(Preset p);

rc::Gen<Config> gen_config(const ConfigSpace &space);

}  // namespace niov::props
