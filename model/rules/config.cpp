// Presets, device limits and the names used by the scenario format and the
// reports.  See RULES.md, "Policies and presets" and "Devices".
#include "config.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace niov {

namespace {

template <typename E>
struct NameEntry {
	E value;
	std::string_view name;
};

template <typename E, size_t N>
std::string_view lookup_name(const std::array<NameEntry<E>, N> &table, E v)
{
	for (const auto &e : table)
		if (e.value == v)
			return e.name;
	return "?";
}

template <typename E, size_t N>
std::optional<E> lookup_value(const std::array<NameEntry<E>, N> &table, std::string_view s)
{
	for (const auto &e : table)
		if (e.name == s)
			return e.value;
	return std::nullopt;
}

constexpr std::array<NameEntry<Device>, 5> kDevices{{
	{Device::none, "none"},
	{Device::mlx5, "mlx5"},
	{Device::gve, "gve"},
	{Device::fbnic, "fbnic"},
	{Device::bnxt, "bnxt"},
}};

constexpr std::array<NameEntry<Dir>, 3> kDirs{{
	{Dir::tx, "tx"},
	{Dir::rx, "rx"},
	{Dir::zcrx, "zcrx"},
}};

constexpr std::array<NameEntry<Preset>, kNumPresets> kPresets{{
	{Preset::baseline, "baseline"},
	{Preset::net_next, "net-next"},
	{Preset::tx_autosize, "tx-autosize"},
	{Preset::linux_6_12, "linux-6.12"},
	{Preset::baseline_unfixed, "baseline-unfixed"},
}};

constexpr std::array<NameEntry<RxAttr>, 2> kRxAttr{{
	{RxAttr::absent, "absent"},
	{RxAttr::present, "present"},
}};

constexpr std::array<NameEntry<BindStyle>, 3> kBind{{
	{BindStyle::genpool, "genpool"},
	{BindStyle::freelist, "freelist"},
	{BindStyle::genpool_unchecked, "genpool-unchecked"},
}};

constexpr std::array<NameEntry<TxNiov>, 3> kTxNiov{{
	{TxNiov::page, "page"},
	{TxNiov::autosize, "auto"},
	{TxNiov::autosize_noaddr, "auto-noaddr"},
}};

constexpr std::array<NameEntry<Lookup>, 2> kLookup{{
	{Lookup::page, "page"},
	{Lookup::niov, "niov"},
}};

constexpr std::array<NameEntry<Truesize>, 3> kTruesize{{
	{Truesize::page, "page"},
	{Truesize::len, "len"},
	{Truesize::zero, "zero"},
}};

constexpr std::array<NameEntry<MaxFrag>, 2> kMaxFrag{{
	{MaxFrag::none, "none"},
	{MaxFrag::device, "device"},
}};

constexpr std::array<NameEntry<BnxtFrags>, 2> kBnxtFrags{{
	{BnxtFrags::linearize, "linearize"},
	{BnxtFrags::segment, "segment"},
}};

// tx_niov_max values are sizes: "64K" .. "2M".
std::string size_name(unsigned shift) {
	return shift >= 20 ? std::to_string(1u << (shift - 20)) + "M" : std::to_string(1u << (shift - 10)) + "K";
}

bool set_tx_niov_max(uint8_t &field, std::string_view value) {
	for (unsigned s = kTxNiovMaxShiftMin; s <= kTxNiovMaxShiftMax; ++s)
		if (value == size_name(s)) {
			field = static_cast<uint8_t>(s);
			return true;
		}
	return false;
}

template <typename E, size_t N>
std::vector<std::string> names_of(const std::array<NameEntry<E>, N> &table)
{
	std::vector<std::string> out;
	for (const auto &e : table)
		out.emplace_back(e.name);
	return out;
}
constexpr std::array<NameEntry<Paths>, 2> kPaths{{
	{Paths::all, "all"},
	{Paths::rx, "rx"},
}};

template <typename E, size_t N>
bool set_from(const std::array<NameEntry<E>, N> &table, E &field, std::string_view value)
{
	auto v = lookup_value(table, value);
	if (!v)
		return false;
	field = *v;
	return true;
}

}  // namespace

Policies preset_policies(Preset p)
{
	Policies r;  // the member defaults are the tx-autosize preset
	switch (p) {
	case Preset::baseline:
		r.rx_attr = RxAttr::absent;
		r.bind = BindStyle::genpool;
		r.tx_niov = TxNiov::page;
		r.lookup = Lookup::page;
		r.truesize = Truesize::page;
		r.max_frag = MaxFrag::none;
		r.bnxt_frags = BnxtFrags::linearize;
		break;
	case Preset::net_next:
		r.rx_attr = RxAttr::present;
		r.bind = BindStyle::freelist;
		r.tx_niov = TxNiov::page;
		r.lookup = Lookup::page;
		r.truesize = Truesize::page;
		r.max_frag = MaxFrag::none;
		r.bnxt_frags = BnxtFrags::linearize;
		break;
	case Preset::tx_autosize:
		r.rx_attr = RxAttr::present;
		r.bind = BindStyle::freelist;
		r.tx_niov = TxNiov::autosize;
		r.lookup = Lookup::niov;
		r.truesize = Truesize::len;
		r.max_frag = MaxFrag::device;
		r.bnxt_frags = BnxtFrags::segment;
		break;
	case Preset::linux_6_12:
	case Preset::baseline_unfixed:
		// baseline's TX and device rules before the May 2026 fix; 6.12 has
		// bind-rx only.
		r = preset_policies(Preset::baseline);
		r.bind = BindStyle::genpool_unchecked;
		r.paths = p == Preset::linux_6_12 ? Paths::rx : Paths::all;
		break;
	}
	return r;
}

uint32_t Config::device_tx_max_frag() const
{
	if (tx_max_frag_size)
		return *tx_max_frag_size;
	if (device == Device::bnxt)
		return 32768;  // 32 KiB: bnxt writes the length as len << 16
	return std::numeric_limits<uint32_t>::max();
}

std::string_view name(Device d) { return lookup_name(kDevices, d); }
std::string_view name(Dir d) { return lookup_name(kDirs, d); }
std::string_view name(Preset p) { return lookup_name(kPresets, p); }

std::optional<Device> parse_device(std::string_view s) { return lookup_value(kDevices, s); }
std::optional<Dir> parse_dir(std::string_view s) { return lookup_value(kDirs, s); }
std::optional<Preset> parse_preset(std::string_view s) { return lookup_value(kPresets, s); }

bool apply_policy(Policies &p, std::string_view key, std::string_view value)
{
	if (key == "rx_attr")
		return set_from(kRxAttr, p.rx_attr, value);
	if (key == "bind")
		return set_from(kBind, p.bind, value);
	if (key == "tx_niov")
		return set_from(kTxNiov, p.tx_niov, value);
	if (key == "lookup")
		return set_from(kLookup, p.lookup, value);
	if (key == "truesize")
		return set_from(kTruesize, p.truesize, value);
	if (key == "max_frag")
		return set_from(kMaxFrag, p.max_frag, value);
	if (key == "bnxt_frags")
		return set_from(kBnxtFrags, p.bnxt_frags, value);
	if (key == "tx_niov_max")
		return set_tx_niov_max(p.tx_niov_max_shift, value);
	if (key == "paths")
		return set_from(kPaths, p.paths, value);
	return false;
}

std::string policies_string(const Policies &p)
{
	std::string s;
	auto add = [&s](std::string_view key, std::string_view value) {
		if (!s.empty())
			s += ' ';
		s += key;
		s += '=';
		s += value;
	};
	add("rx_attr", lookup_name(kRxAttr, p.rx_attr));
	add("bind", lookup_name(kBind, p.bind));
	add("tx_niov", lookup_name(kTxNiov, p.tx_niov));
	add("lookup", lookup_name(kLookup, p.lookup));
	add("truesize", lookup_name(kTruesize, p.truesize));
	add("max_frag", lookup_name(kMaxFrag, p.max_frag));
	add("bnxt_frags", lookup_name(kBnxtFrags, p.bnxt_frags));
	add("tx_niov_max", size_name(p.tx_niov_max_shift));
	add("paths", lookup_name(kPaths, p.paths));
	return s;
}

std::string policy_overrides(const Policies &p, const Policies &base)
{
	std::string out;
	std::string_view h, b;
	const std::string have = policies_string(p), want = policies_string(base);
	h = have;
	b = want;
	while (!h.empty()) {
		const size_t hs = h.find(' '), bs = b.find(' ');
		const std::string_view ht = h.substr(0, hs), bt = b.substr(0, bs);
		if (ht != bt) {
			if (!out.empty())
				out += ' ';
			out += ht;
		}
		h = hs == std::string_view::npos ? std::string_view{} : h.substr(hs + 1);
		b = bs == std::string_view::npos ? std::string_view{} : b.substr(bs + 1);
	}
	return out;
}

std::vector<std::string_view> preset_names()
{
	std::vector<std::string_view> out;
	for (const auto &e : kPresets)
		out.push_back(e.name);
	return out;
}

std::string preset_list()
{
	const auto names = preset_names();
	std::string s;
	for (size_t i = 0; i < names.size(); ++i)
		s += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
	return s;
}

std::vector<PolicyKey> policy_keys()
{
	std::vector<std::string> sizes;
	for (unsigned s = kTxNiovMaxShiftMin; s <= kTxNiovMaxShiftMax; ++s)
		sizes.push_back(size_name(s));
	return {
		{"rx_attr", names_of(kRxAttr)},	  {"bind", names_of(kBind)},
		{"tx_niov", names_of(kTxNiov)},	  {"lookup", names_of(kLookup)},
		{"truesize", names_of(kTruesize)}, {"max_frag", names_of(kMaxFrag)},
		{"bnxt_frags", names_of(kBnxtFrags)}, {"tx_niov_max", sizes}, {"paths", names_of(kPaths)},
	};
}

}  // namespace niov
