#include "gen_config.hpp"

#include <map>
#include <string>

#include "boundary.hpp"

namespace niov::props {

namespace {

const std::vector<std::pair<std::string, std::vector<std::string>>> &policy_values() {
	static const std::vector<std::pair<std::string, std::vector<std::string>>> v{
		{"rx_attr", {"absent", "present"}},
		{"bind", {"genpool", "freelist"}},
		{"tx_niov", {"page", "auto", "auto-noaddr"}},
		{"lookup", {"page", "niov"}},
		{"truesize", {"page", "len", "zero"}},
		{"max_frag", {"none", "device"}},
		{"bnxt_frags", {"linearize", "segment"}},
	};
	return v;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> single_overrides(Preset p) {
	std::vector<std::pair<std::string, std::string>> out;
	const Policies base = preset_policies(p);
	for (const auto &[key, values] : policy_values()) {
		for (const auto &value : values) {
			Policies q = base;
			apply_policy(q, key, value);
			if (!(q == base))
				out.emplace_back(key, value);
		}
	}
	return out;
}

namespace {

// Drawn in place, each choice's branch alone (boundary.hpp, draw_choice).
Config draw_config(const ConfigSpace &space) {
	Config c;
	c.preset = space.presets[*uniform<size_t>(0, space.presets.size())];
	c.policy = preset_policies(c.preset);
	if (space.forced) {
		c.policy = *space.forced;
	} else if (space.declared) {
		c.policy = *space.declared;
		c.rules_declared = true;
	} else if (space.overrides && draw_choice({2, 1}) == 1) {
		// Per preset, computed once: the override list is the same every case.
		static std::map<Preset, std::vector<std::pair<std::string, std::string>>> cache;
		auto it = cache.find(c.preset);
		if (it == cache.end())
			it = cache.emplace(c.preset, single_overrides(c.preset)).first;
		const auto &kv = it->second[*uniform<size_t>(0, it->second.size())];
		apply_policy(c.policy, kv.first, kv.second);
	}
	c.page_shift = draw_weighted_pick<unsigned>({{6, 12}, {2, 14}, {2, 16}});
	switch (draw_choice({4, 2, 2})) {
	case 0:
		c.max_skb_frags = 17;
		break;
	case 1:
		c.max_skb_frags = draw_pick<unsigned>({45u, 18u, 30u, 31u});
		break;
	default:
		c.max_skb_frags = *uniform(17u, 46u);
	}
	c.device = space.devices[*uniform<size_t>(0, space.devices.size())];
	// Legacy GSO and BIG TCP mostly; odd goals (one byte, one MSS,
	// around 64 KiB) now and then, and rarely past BIG TCP's 512 KiB
	// GSO limit: a gve frag above 1 MiB once overflowed the plugin
	// loader's encode buffer (corpora/regressions/
	// gve_frag_past_encode_buffer.scn).
	switch (draw_choice({5, 3, 1, 1, 1})) {
	case 0:
		c.size_goal = 65160;
		break;
	case 1:
		c.size_goal = 522728;
		break;
	case 2:
		c.size_goal = draw_pick<uint32_t>({1448u, 1u, 4096u, 65535u, 65536u, 65537u, 524288u});
		break;
	case 3:
		c.size_goal = *uniform(1u, (1u << 19) + 1);
		break;
	default:
		c.size_goal = draw_pick<uint32_t>({2u << 20, kMaxSizeGoal});
	}
	c.mss = draw_weighted_pick<uint32_t>({{6, 1448}, {1, 8948}, {1, 536}, {1, 8}, {1, 65535}});
	c.skb_head_truesize = draw_weighted_pick<uint32_t>({{6, 1024}, {1, 0}, {1, 768}, {1, 2304}});
	if (draw_choice({9, 1}) == 1)
		c.tx_max_frag_size = draw_pick<uint32_t>(
			{32768u, 4096u, 16383u, 32767u, 65535u, 65536u, 1u << 20, UINT32_MAX, 1u, 7u});
	// MAX_PAGE_ORDER is 10 on x86 and most configs; arm64 64 KiB pages
	// use 13; the rest of the scenario format's range (0..20, as the
	// fuzzers draw it) reaches the devices whose own buffer limit lies
	// above PAGE_SIZE << MAX_PAGE_ORDER (bnxt's 32 KiB at order < 3).
	switch (draw_choice({6, 1, 2})) {
	case 0:
		c.max_page_order = 10;
		break;
	case 1:
		c.max_page_order = draw_pick<unsigned>({13u, 11u});
		break;
	default:
		c.max_page_order = *uniform(0u, 21u);
	}
	return c;
}

}  // namespace

rc::Gen<Config> gen_config(const ConfigSpace &space) {
	return rc::gen::exec([space] { return draw_config(space); });
}

}  // namespace niov::props
