#include "gen_config.hpp"

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

rc::Gen<Config> gen_config(const ConfigSpace &space) {
	return rc::gen::exec([space] {
		Config c;
		c.preset = *rc::gen::elementOf(space.presets);
		c.policy = preset_policies(c.preset);
		if (space.forced) {
			c.policy = *space.forced;
		} else if (space.declared) {
			c.policy = *space.declared;
			c.rules_declared = true;
		} else if (space.overrides && *weighted_pick<bool>({{2, false}, {1, true}})) {
			const auto kv = *rc::gen::elementOf(single_overrides(c.preset));
			apply_policy(c.policy, kv.first, kv.second);
		}
		c.page_shift = *weighted_pick<unsigned>({{6, 12}, {2, 14}, {2, 16}});
		c.max_skb_frags = *weighted<unsigned>({
			{4, rc::gen::just(17u)},
			{2, rc::gen::element(45u, 18u, 30u, 31u)},
			{2, uniform(17u, 46u)},
		});
		c.device = *rc::gen::elementOf(space.devices);
		// Legacy GSO and BIG TCP mostly; odd goals (one byte, one MSS,
		// around 64 KiB) now and then, and rarely past BIG TCP's 512 KiB
		// GSO limit: a gve frag above 1 MiB once overflowed the plugin
		// loader's encode buffer (corpora/regressions/
		// gve_frag_past_encode_buffer.scn).
		c.size_goal = *weighted<uint32_t>({
			{5, rc::gen::just(65160u)},
			{3, rc::gen::just(522728u)},
			{1, rc::gen::element(1448u, 1u, 4096u, 65535u, 65536u, 65537u, 524288u)},
			{1, uniform(1u, (1u << 19) + 1)},
			{1, rc::gen::element(2u << 20, kMaxSizeGoal)},
		});
		c.mss = *weighted_pick<uint32_t>({{6, 1448}, {1, 8948}, {1, 536}, {1, 8}, {1, 65535}});
		c.skb_head_truesize = *weighted_pick<uint32_t>({{6, 1024}, {1, 0}, {1, 768}, {1, 2304}});
		if (*weighted_pick<bool>({{9, false}, {1, true}}))
			c.tx_max_frag_size = *pick<uint32_t>({32768u, 4096u, 16383u, 32767u,
									   65535u, 65536u, 1u << 20,
									   UINT32_MAX, 1u, 7u});
		// MAX_PAGE_ORDER is 10 on x86 and most configs; arm64 64 KiB pages
		// use 13; the rest of the scenario format's range (0..20, as the
		// fuzzers draw it) reaches the devices whose own buffer limit lies
		// above PAGE_SIZE << MAX_PAGE_ORDER (bnxt's 32 KiB at order < 3).
		c.max_page_order = *weighted<unsigned>({
			{6, rc::gen::just(10u)},
			{1, rc::gen::element(13u, 11u)},
			{2, uniform(0u, 21u)},
		});
		return c;
	});
}

}  // namespace niov::props
