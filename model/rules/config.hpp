// Configuration of one run: kernel build parameters, device profile and the
// rule policies.  Plain data shared by the model, the scenario format and the
// engines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace niov {

enum class Device : uint8_t { none, mlx5, gve, fbnic, bnxt };
enum class Dir : uint8_t { tx, rx, zcrx };

// Each policy is one switch of the seed 000 series (or of the RX series);
// presets pick a value for every one, scenarios may override single ones.
enum class RxAttr : uint8_t { absent, present };
// genpool_unchecked: the gen_pool bind before the May 2026 fix (no size or sg
// length check, each sg entry truncated to whole pages).
enum class BindStyle : uint8_t { genpool, freelist, genpool_unchecked };
enum class TxNiov : uint8_t { page, autosize, autosize_noaddr };
enum class Lookup : uint8_t { page, niov };
enum class Truesize : uint8_t { page, len, zero };
enum class MaxFrag : uint8_t { none, device };
enum class BnxtFrags : uint8_t { linearize, segment };
// The netlink commands the kernel has: all, or bind-rx only (6.12: no
// bind-tx, no io_uring zcrx).
enum class Paths : uint8_t { all, rx };

struct Policies {
	RxAttr rx_attr = RxAttr::present;
	BindStyle bind = BindStyle::freelist;
	TxNiov tx_niov = TxNiov::autosize;
	Lookup lookup = Lookup::niov;
	Truesize truesize = Truesize::len;
	MaxFrag max_frag = MaxFrag::device;
	BnxtFrags bnxt_frags = BnxtFrags::segment;
	// TX auto-sizing starts its halving loop here: log2 of the largest TX
	// niov size (21 = SZ_2M, the series; policy tx_niov_max=1M etc.).
	uint8_t tx_niov_max_shift = 21;
	Paths paths = Paths::all;
	bool operator==(const Policies &) const = default;
};

// The kernel eras (RULES.md "Presets"); new ones go at the end, the value is
// an index into per-preset tables.
enum class Preset : uint8_t { baseline, net_next, tx_autosize, linux_6_12, baseline_unfixed };
inline constexpr size_t kNumPresets = 5;
inline constexpr Preset kAllPresets[kNumPresets] = {Preset::baseline, Preset::net_next, Preset::tx_autosize,
						    Preset::linux_6_12, Preset::baseline_unfixed};

Policies preset_policies(Preset p);

struct Config {
	unsigned page_shift = 12;
	unsigned max_skb_frags = 17;
	Device device = Device::none;
	std::optional<uint32_t> tx_max_frag_size;  // overrides the device's value
	uint32_t size_goal = 65160;		   // legacy GSO, MSS 1448
	uint32_t mss = 1448;			   // GSO segment size seen by the NIC
	uint32_t skb_head_truesize = 1024;	   // H = SKB_TRUESIZE(skb_end_offset)
	unsigned max_page_order = 10;
	Preset preset = Preset::tx_autosize;
	Policies policy = preset_policies(Preset::tx_autosize);
	// The policies are the rules under test (a run's --policy, pinned by
	// RulesInForce), not a partial series: overrides excuse nothing.
	bool rules_declared = false;

	uint64_t page_size() const { return uint64_t{1} << page_shift; }
	// The device's netmem_tx_max_frag_size (U32_MAX = no limit).
	uint32_t device_tx_max_frag() const;
};

// Limits of the model's domain; the scenario parser enforces them.
inline constexpr unsigned kMinMaxSkbFrags = 17;
inline constexpr unsigned kMaxMaxSkbFrags = 45;
inline constexpr uint64_t kTxNiovMaxSize = uint64_t{1} << 21;  // SZ_2M
// The values policy tx_niov_max takes: 64K (every page size fits) to 2M.
inline constexpr unsigned kTxNiovMaxShiftMin = 16;
inline constexpr unsigned kTxNiovMaxShiftMax = 21;
inline constexpr uint64_t kMaxNiovTable = uint64_t{1} << 24;   // model kvmalloc limit
inline constexpr uint32_t kUioMaxIov = 1024;
// Realistic ceilings the parser enforces: GSO caps skbs near 512 KiB and a
// TCP skb head is about a kilobyte, so these leave headroom without letting
// one skb's truesize approach the int sk_wmem_queued.
inline constexpr uint32_t kMaxSizeGoal = 16u << 20;
inline constexpr uint32_t kMaxHeadTruesize = 1u << 20;
// sk_sndbuf: sendmsg allocates no new skb once sk_wmem_queued reaches it
// (sk_stream_memory_free); the model treats the socket as non-blocking.
inline constexpr uint32_t kSndbuf = 1u << 30;
inline constexpr uint32_t kBnxtTxMaxFrags = 30;
inline constexpr uint32_t kGveMaxBufSize = 16383;
inline constexpr uint32_t kGveMaxDescsPerSeg = 10;  // header + 9 data buffers

std::string_view name(Device d);
std::string_view name(Dir d);
std::string_view name(Preset p);
std::optional<Device> parse_device(std::string_view s);
std::optional<Dir> parse_dir(std::string_view s);
std::optional<Preset> parse_preset(std::string_view s);
// "truesize=page" style single-policy override; false if unknown.
bool apply_policy(Policies &p, std::string_view key, std::string_view value);
// Every policy as key=value, for reports and for writing scenarios.
std::string policies_string(const Policies &p);
// The policies of @p that differ from @base, as "key=value" in
// policies_string order (what a scenario's policy line says).
std::string policy_overrides(const Policies &p, const Policies &base);

// The names the rules are spelled with, for error messages that list the
// valid values.
std::vector<std::string_view> preset_names();
// Every preset, for messages: "baseline, net-next, ... or baseline-unfixed".
std::string preset_list();
struct PolicyKey {
	std::string_view key;
	std::vector<std::string> values;
};
std::vector<PolicyKey> policy_keys();

}  // namespace niov
