// Unit and property tests of the scenario format (model/scenario.cpp) and of
// the configuration names, presets and policies (model/config.cpp).
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "config.hpp"
#include "errno.hpp"
#include "invariants.hpp"
#include "scenario.hpp"

namespace {

using namespace niov;

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();

// ---------------------------------------------------------------------------
// helpers

// Field-by-field comparison; "" when equal, else the first difference.
std::string diff_scenarios(const Scenario &a, const Scenario &b)
{
#define NIOV_CMP(field)                 \
	if (!(a.field == b.field))      \
		return #field " differs";
	NIOV_CMP(cfg.page_shift)
	NIOV_CMP(cfg.max_skb_frags)
	NIOV_CMP(cfg.device)
	NIOV_CMP(cfg.tx_max_frag_size)
	NIOV_CMP(cfg.size_goal)
	NIOV_CMP(cfg.mss)
	NIOV_CMP(cfg.skb_head_truesize)
	NIOV_CMP(cfg.max_page_order)
	NIOV_CMP(cfg.preset)
	NIOV_CMP(cfg.policy)
	NIOV_CMP(dir)
	NIOV_CMP(rx_buf_size)
	NIOV_CMP(pp_order)
	NIOV_CMP(zcrx_device)
	NIOV_CMP(dmabuf_size)
	NIOV_CMP(dmabuf_size_set)
	NIOV_CMP(segs)
	NIOV_CMP(expect_violations)
	NIOV_CMP(expect_bind_err)
	NIOV_CMP(name)
#undef NIOV_CMP
	if (a.ops.size() != b.ops.size())
		return "ops.size differs: " + std::to_string(a.ops.size()) + " vs " +
		       std::to_string(b.ops.size());
	for (size_t i = 0; i < a.ops.size(); i++)
		if (!(a.ops[i] == b.ops[i]))
			return "ops[" + std::to_string(i) + "] differs";
	return "";
}

Scenario parse_ok(std::string_view text, std::string_view file = "t.scn")
{
	auto r = parse_scenario(text, file);
	EXPECT_TRUE(r.scenario.has_value()) << r.error.message << "\n--- input:\n" << text;
	return r.scenario ? *r.scenario : Scenario{};
}

std::string parse_err(std::string_view text, std::string_view file = "t.scn")
{
	auto r = parse_scenario(text, file);
	EXPECT_FALSE(r.scenario.has_value()) << "parsed:\n" << text;
	return r.error.message;
}

// "FILE:LINE: message", one line, LINE in [1, lines of text].
bool well_formed_error(const std::string &msg, std::string_view file, std::string_view text,
		       std::string *why)
{
	if (msg.find('\n') != std::string::npos) {
		*why = "newline in message";
		return false;
	}
	if (msg.compare(0, file.size(), file) != 0 || msg.size() <= file.size() ||
	    msg[file.size()] != ':') {
		*why = "no file name prefix";
		return false;
	}
	size_t i = file.size() + 1, start = i;
	uint64_t line = 0;
	while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9' && i - start < 12)
		line = line * 10 + static_cast<uint64_t>(msg[i++] - '0');
	if (i == start || msg.compare(i, 2, ": ") != 0 || msg.size() == i + 2) {
		*why = "no line number";
		return false;
	}
	uint64_t lines = 1;
	for (char c : text)
		lines += c == '\n';
	if (line < 1 || line > lines) {
		*why = "line " + std::to_string(line) + " outside 1.." + std::to_string(lines);
		return false;
	}
	return true;
}

// parse(serialize(s)) == s
std::string round_trip_diff(const Scenario &s)
{
	std::string text = serialize_scenario(s);
	auto r = parse_scenario(text, s.name);
	if (!r.scenario)
		return "re-parse failed: " + r.error.message + "\n--- text:\n" + text;
	std::string d = diff_scenarios(s, *r.scenario);
	if (!d.empty())
		return d + "\n--- text:\n" + text;
	if (serialize_scenario(*r.scenario) != text)
		return "serialization not canonical\n--- text:\n" + text;
	return "";
}

const char *const kExample = R"(rules tx-autosize            # preset
policy truesize=page         # optional overrides
page_shift 12
max_skb_frags 17
device bnxt
tx_max_frag_size 32K
size_goal 65160
dir tx
dmabuf_size 6M
sg 0x40000000 2M
sg 0x80200000 4M
send 0x1ff000+64K
send 0+4K 0x2000+100 length=1000
ack 8688
split 14480
shift 100
free
)";

// ---------------------------------------------------------------------------
// config.cpp

TEST(Config, PresetTable)
{
	Policies b = preset_policies(Preset::baseline);
	EXPECT_EQ(b.rx_attr, RxAttr::absent);
	EXPECT_EQ(b.bind, BindStyle::genpool);
	EXPECT_EQ(b.tx_niov, TxNiov::page);
	EXPECT_EQ(b.lookup, Lookup::page);
	EXPECT_EQ(b.truesize, Truesize::page);
	EXPECT_EQ(b.max_frag, MaxFrag::none);
	EXPECT_EQ(b.bnxt_frags, BnxtFrags::linearize);

	Policies n = preset_policies(Preset::net_next);
	EXPECT_EQ(n.rx_attr, RxAttr::present);
	EXPECT_EQ(n.bind, BindStyle::freelist);
	EXPECT_EQ(n.tx_niov, TxNiov::page);
	EXPECT_EQ(n.lookup, Lookup::page);
	EXPECT_EQ(n.truesize, Truesize::page);
	EXPECT_EQ(n.max_frag, MaxFrag::none);
	EXPECT_EQ(n.bnxt_frags, BnxtFrags::linearize);

	Policies t = preset_policies(Preset::tx_autosize);
	EXPECT_EQ(t.rx_attr, RxAttr::present);
	EXPECT_EQ(t.bind, BindStyle::freelist);
	EXPECT_EQ(t.tx_niov, TxNiov::autosize);
	EXPECT_EQ(t.lookup, Lookup::niov);
	EXPECT_EQ(t.truesize, Truesize::len);
	EXPECT_EQ(t.max_frag, MaxFrag::device);
	EXPECT_EQ(t.bnxt_frags, BnxtFrags::segment);

	// The eras before the May 2026 fix: baseline without the size and sg
	// length checks; 6.12 has bind-rx only.
	Policies u = preset_policies(Preset::baseline_unfixed);
	Policies b_unchecked = b;
	b_unchecked.bind = BindStyle::genpool_unchecked;
	EXPECT_EQ(u, b_unchecked);
	EXPECT_EQ(u.paths, Paths::all);
	Policies l = preset_policies(Preset::linux_6_12);
	EXPECT_EQ(l.bind, BindStyle::genpool_unchecked);
	EXPECT_EQ(l.rx_attr, RxAttr::absent);
	EXPECT_EQ(l.paths, Paths::rx);
	EXPECT_EQ(l.tx_niov, TxNiov::page);
	for (Preset p : {Preset::baseline, Preset::net_next, Preset::tx_autosize})
		EXPECT_EQ(preset_policies(p).paths, Paths::all);

	Config c;
	EXPECT_EQ(c.preset, Preset::tx_autosize);
	EXPECT_EQ(c.policy, t);
}

TEST(Config, PresetNames)
{
	for (Preset p : kAllPresets)
		EXPECT_EQ(parse_preset(name(p)), p) << name(p);
	EXPECT_EQ(parse_preset("linux-6.12"), Preset::linux_6_12);
	EXPECT_EQ(parse_preset("baseline-unfixed"), Preset::baseline_unfixed);
	EXPECT_FALSE(parse_preset("linux-6.13").has_value());
}

TEST(Config, PoliciesString)
{
	EXPECT_EQ(policies_string(preset_policies(Preset::baseline)),
		  "rx_attr=absent bind=genpool tx_niov=page lookup=page truesize=page "
		  "max_frag=none bnxt_frags=linearize tx_niov_max=2M paths=all");
	EXPECT_EQ(policies_string(preset_policies(Preset::net_next)),
		  "rx_attr=present bind=freelist tx_niov=page lookup=page truesize=page "
		  "max_frag=none bnxt_frags=linearize tx_niov_max=2M paths=all");
	EXPECT_EQ(policies_string(preset_policies(Preset::tx_autosize)),
		  "rx_attr=present bind=freelist tx_niov=auto lookup=niov truesize=len "
		  "max_frag=device bnxt_frags=segment tx_niov_max=2M paths=all");
	EXPECT_EQ(policies_string(preset_policies(Preset::linux_6_12)),
		  "rx_attr=absent bind=genpool-unchecked tx_niov=page lookup=page truesize=page "
		  "max_frag=none bnxt_frags=linearize tx_niov_max=2M paths=rx");
}

TEST(Config, ApplyPolicyEveryValue)
{
	const std::vector<std::pair<std::string, std::vector<std::string>>> table = {
		{"rx_attr", {"absent", "present"}},
		{"bind", {"genpool", "freelist", "genpool-unchecked"}},
		{"tx_niov", {"page", "auto", "auto-noaddr"}},
		{"lookup", {"page", "niov"}},
		{"truesize", {"page", "len", "zero"}},
		{"max_frag", {"none", "device"}},
		{"bnxt_frags", {"linearize", "segment"}},
		{"tx_niov_max", {"64K", "128K", "256K", "512K", "1M", "2M"}},
		{"paths", {"all", "rx"}},
	};
	for (const auto &[key, values] : table) {
		for (const auto &value : values) {
			Policies p = preset_policies(Preset::baseline);
			ASSERT_TRUE(apply_policy(p, key, value)) << key << "=" << value;
			std::string kv = key + "=" + value;
			EXPECT_NE(policies_string(p).find(kv), std::string::npos) << kv;
		}
		Policies p;
		Policies before = p;
		EXPECT_FALSE(apply_policy(p, key, "bogus"));
		EXPECT_FALSE(apply_policy(p, key, ""));
		EXPECT_FALSE(apply_policy(p, key, values[0] + " "));
		EXPECT_EQ(p, before);
	}
	Policies p;
	EXPECT_TRUE(apply_policy(p, "tx_niov", "auto-noaddr"));
	EXPECT_EQ(p.tx_niov, TxNiov::autosize_noaddr);
	EXPECT_TRUE(apply_policy(p, "truesize", "zero"));
	EXPECT_EQ(p.truesize, Truesize::zero);
	EXPECT_FALSE(apply_policy(p, "unknown", "page"));
	EXPECT_FALSE(apply_policy(p, "Truesize", "page"));
	EXPECT_FALSE(apply_policy(p, "", ""));
}

TEST(Config, Names)
{
	for (Device d : {Device::none, Device::mlx5, Device::gve, Device::fbnic, Device::bnxt})
		EXPECT_EQ(parse_device(name(d)), d);
	for (Dir d : {Dir::tx, Dir::rx, Dir::zcrx})
		EXPECT_EQ(parse_dir(name(d)), d);
	for (Preset p : {Preset::baseline, Preset::net_next, Preset::tx_autosize})
		EXPECT_EQ(parse_preset(name(p)), p);
	EXPECT_EQ(name(Device::mlx5), "mlx5");
	EXPECT_EQ(name(Dir::zcrx), "zcrx");
	EXPECT_EQ(name(Preset::net_next), "net-next");
	EXPECT_EQ(name(Preset::tx_autosize), "tx-autosize");
	EXPECT_FALSE(parse_device("MLX5"));
	EXPECT_FALSE(parse_device(""));
	EXPECT_FALSE(parse_dir("tx "));
	EXPECT_FALSE(parse_preset("net_next"));
	EXPECT_FALSE(parse_preset("tx_autosize"));
}

TEST(Config, DeviceTxMaxFrag)
{
	Config c;
	for (Device d : {Device::none, Device::mlx5, Device::gve, Device::fbnic}) {
		c.device = d;
		EXPECT_EQ(c.device_tx_max_frag(), kU32Max) << name(d);
	}
	c.device = Device::bnxt;
	EXPECT_EQ(c.device_tx_max_frag(), 32768u);
	c.tx_max_frag_size = 4096;
	EXPECT_EQ(c.device_tx_max_frag(), 4096u);
	c.device = Device::mlx5;
	EXPECT_EQ(c.device_tx_max_frag(), 4096u);
	c.tx_max_frag_size = kU32Max;
	c.device = Device::bnxt;
	EXPECT_EQ(c.device_tx_max_frag(), kU32Max);
}

// ---------------------------------------------------------------------------
// parse_number

TEST(ParseNumber, Good)
{
	const std::vector<std::pair<std::string, uint64_t>> good = {
		{"0", 0},
		{"1", 1},
		{"00012", 12},
		{"8688", 8688},
		{"0x0", 0},
		{"0x1ff000", 0x1ff000},
		{"0X1FF000", 0x1ff000},
		{"0xabcdef", 0xabcdef},
		{"64K", 64 * 1024},
		{"64k", 64 * 1024},
		{"2M", 2u << 20},
		{"3M", 3u << 20},
		{"3m", 3u << 20},
		{"1G", uint64_t{1} << 30},
		{"1g", uint64_t{1} << 30},
		{"1T", uint64_t{1} << 40},
		{"0K", 0},
		{"0x10K", 0x10 * 1024},
		{"0x10k", 0x10 * 1024},
		{"0x3M", 3u << 20},
		{"18446744073709551615", kU64Max},
		{"0xffffffffffffffff", kU64Max},
		{"0x0000000000000000000000001", 1},
		{"16777215T", uint64_t{16777215} << 40},
		{"17179869183G", uint64_t{17179869183} << 30},
		{"0x3fffffffffffffK", uint64_t{0x3fffffffffffff} << 10},
		{"0x1g", uint64_t{1} << 30},
	};
	for (const auto &[text, want] : good) {
		uint64_t v = 12345;
		EXPECT_TRUE(parse_number(text, v)) << text;
		EXPECT_EQ(v, want) << text;
	}
}

TEST(ParseNumber, Bad)
{
	const std::vector<std::string> bad = {
		"",
		"K",
		"k",
		"0x",
		"0X",
		"0xK",
		"x10",
		"-1",
		"+1",
		" 1",
		"1 ",
		"1.5M",
		"1_000",
		"1e3",
		"16E",   // no E suffix (and 16 EiB is 2^64: overflow anyway)
		"1P",
		"1KK",
		"1Ki",
		"1KB",
		"0x1g0",
		"0xg",
		"0b101",
		"18446744073709551616",
		"99999999999999999999",
		"0x10000000000000000",
		"0x1ffffffffffffffff",
		"16777216T",
		"17179869184G",
		"16777216G0",
		"0x100000000000000K",
		"0x40000000000000K",
		"0x1gg",
		std::string("1\0", 2),
		"\xff",
	};
	for (const auto &text : bad) {
		uint64_t v = 777;
		EXPECT_FALSE(parse_number(text, v)) << text;
		EXPECT_EQ(v, 777u) << "output written on failure: " << text;
	}
}

// ---------------------------------------------------------------------------
// parse_scenario: accepted input

TEST(Parse, Example)
{
	Scenario s = parse_ok(kExample, "example.scn");
	EXPECT_EQ(s.name, "example.scn");
	EXPECT_EQ(s.cfg.preset, Preset::tx_autosize);
	Policies want = preset_policies(Preset::tx_autosize);
	want.truesize = Truesize::page;
	EXPECT_EQ(s.cfg.policy, want);
	EXPECT_EQ(s.cfg.page_shift, 12u);
	EXPECT_EQ(s.cfg.max_skb_frags, 17u);
	EXPECT_EQ(s.cfg.device, Device::bnxt);
	EXPECT_EQ(s.cfg.tx_max_frag_size, 32768u);
	EXPECT_EQ(s.cfg.size_goal, 65160u);
	EXPECT_EQ(s.dir, Dir::tx);
	EXPECT_EQ(s.dmabuf_size, 6u << 20);
	EXPECT_TRUE(s.dmabuf_size_set);
	ASSERT_EQ(s.segs.size(), 2u);
	EXPECT_EQ(s.segs[0], (DmaSeg{0x40000000, 2u << 20}));
	EXPECT_EQ(s.segs[1], (DmaSeg{0x80200000, 4u << 20}));
	ASSERT_EQ(s.ops.size(), 6u);

	EXPECT_EQ(s.ops[0].kind, OpKind::send);
	EXPECT_EQ(s.ops[0].iov, (std::vector<IovElem>{{0x1ff000, 65536}}));
	EXPECT_FALSE(s.ops[0].length);
	EXPECT_EQ(s.ops[0].line, 12u);

	EXPECT_EQ(s.ops[1].kind, OpKind::send);
	EXPECT_EQ(s.ops[1].iov, (std::vector<IovElem>{{0, 4096}, {0x2000, 100}}));
	EXPECT_EQ(s.ops[1].length, 1000u);
	EXPECT_EQ(s.ops[1].line, 13u);

	EXPECT_EQ(s.ops[2].kind, OpKind::ack);
	EXPECT_EQ(s.ops[2].n, 8688u);
	EXPECT_EQ(s.ops[2].line, 14u);
	EXPECT_EQ(s.ops[3].kind, OpKind::split);
	EXPECT_EQ(s.ops[3].n, 14480u);
	EXPECT_EQ(s.ops[4].kind, OpKind::shift);
	EXPECT_EQ(s.ops[4].n, 100u);
	EXPECT_EQ(s.ops[5].kind, OpKind::free);
	EXPECT_EQ(s.ops[5].line, 17u);
}

TEST(Parse, EmptyInputGivesDefaults)
{
	for (std::string_view text : {"", "\n", "   \n\t\n", "# nothing\n   # at all"}) {
		Scenario s = parse_ok(text);
		Scenario d;
		d.name = "t.scn";
		EXPECT_EQ(diff_scenarios(s, d), "") << text;
	}
	Scenario s = parse_ok("");
	EXPECT_EQ(s.cfg.page_shift, 12u);
	EXPECT_EQ(s.cfg.max_skb_frags, 17u);
	EXPECT_EQ(s.cfg.size_goal, 65160u);
	EXPECT_EQ(s.cfg.mss, 1448u);
	EXPECT_EQ(s.cfg.skb_head_truesize, 1024u);
	EXPECT_EQ(s.cfg.max_page_order, 10u);
	EXPECT_EQ(s.cfg.preset, Preset::tx_autosize);
	EXPECT_EQ(s.dir, Dir::tx);
	EXPECT_TRUE(s.zcrx_device);
	EXPECT_EQ(s.dmabuf_size, 0u);
	EXPECT_FALSE(s.dmabuf_size_set);
}

TEST(Parse, EveryKeyword)
{
	Scenario s = parse_ok(
		"rules baseline\n"
		"policy lookup=niov tx_niov=auto-noaddr\n"
		"policy truesize=zero lookup=page\n"  // repeats; the last one wins
		"page_shift 16\n"
		"max_skb_frags 45\n"
		"device gve\n"
		"tx_max_frag_size 4294967295\n"
		"size_goal 16M\n"
		"mss 65535\n"
		"skb_head_truesize 0\n"
		"max_page_order 20\n"
		"dir zcrx\n"
		"rx_buf_size 0\n"
		"pp_order 63\n"
		"zcrx_device 0\n"
		"sg 0 0x10000\n"
		"sg 0xffffffffffffffff 18446744073709551615\n"
		"send 0+0\n"
		"ack 0\n"
		"split 18446744073709551615\n"
		"shift 1\n"
		"free\n");
	EXPECT_EQ(s.cfg.preset, Preset::baseline);
	Policies want = preset_policies(Preset::baseline);
	want.tx_niov = TxNiov::autosize_noaddr;
	want.truesize = Truesize::zero;
	want.lookup = Lookup::page;
	EXPECT_EQ(s.cfg.policy, want);
	EXPECT_EQ(s.cfg.page_shift, 16u);
	EXPECT_EQ(s.cfg.max_skb_frags, 45u);
	EXPECT_EQ(s.cfg.device, Device::gve);
	EXPECT_EQ(s.cfg.tx_max_frag_size, kU32Max);
	EXPECT_EQ(s.cfg.size_goal, 16u << 20);
	EXPECT_EQ(s.cfg.mss, 65535u);
	EXPECT_EQ(s.cfg.skb_head_truesize, 0u);
	EXPECT_EQ(s.cfg.max_page_order, 20u);
	EXPECT_EQ(s.dir, Dir::zcrx);
	EXPECT_EQ(s.rx_buf_size, 0u);
	EXPECT_EQ(s.pp_order, 63u);
	EXPECT_FALSE(s.zcrx_device);
	EXPECT_FALSE(s.dmabuf_size_set);
	EXPECT_EQ(s.dmabuf_size, kU64Max);  // 0x10000 + U64_MAX saturates
	ASSERT_EQ(s.ops.size(), 5u);
	EXPECT_EQ(s.ops[2].kind, OpKind::split);
	EXPECT_EQ(s.ops[2].n, kU64Max);
	EXPECT_EQ(round_trip_diff(s), "");
}

TEST(Parse, RulesResetsPolicyToPreset)
{
	for (Preset p : {Preset::baseline, Preset::net_next, Preset::tx_autosize}) {
		Scenario s = parse_ok("rules " + std::string(name(p)) + "\n");
		EXPECT_EQ(s.cfg.preset, p);
		EXPECT_EQ(s.cfg.policy, preset_policies(p));
	}
	// Without 'rules' the policies apply to the default preset.
	Scenario s = parse_ok("policy bind=genpool\n");
	EXPECT_EQ(s.cfg.preset, Preset::tx_autosize);
	EXPECT_EQ(s.cfg.policy.bind, BindStyle::genpool);
	EXPECT_EQ(s.cfg.policy.tx_niov, TxNiov::autosize);
}

TEST(Parse, DmabufSizeDefaultsToSegmentSum)
{
	Scenario s = parse_ok("sg 0x1000 4K\nsg 0x100000 1M\n");
	EXPECT_FALSE(s.dmabuf_size_set);
	EXPECT_EQ(s.dmabuf_size, 4096u + (1u << 20));

	s = parse_ok("sg 0 0x8000000000000000\nsg 0 0x8000000000000000\nsg 0 1\n");
	EXPECT_EQ(s.dmabuf_size, kU64Max);

	s = parse_ok("sg 0 0xffffffffffffffff\nsg 0 0\n");
	EXPECT_EQ(s.dmabuf_size, kU64Max);

	s = parse_ok("dmabuf_size 0\nsg 0 4K\n");
	EXPECT_TRUE(s.dmabuf_size_set);
	EXPECT_EQ(s.dmabuf_size, 0u);
}

TEST(Parse, Whitespace_Comments_Crlf)
{
	Scenario s = parse_ok(
		"\t rules\tnet-next#comment right after\n"
		"#page_shift 14\n"
		"   \n"
		"device mlx5 \t # trailing\r\n"
		"sg\t0\t\t4K\r\n"
		"send 0+1 \t 1+2\tlength=3\r\n"
		"ack 1", "w.scn");  // no final newline
	EXPECT_EQ(s.cfg.preset, Preset::net_next);
	EXPECT_EQ(s.cfg.page_shift, 12u);
	EXPECT_EQ(s.cfg.device, Device::mlx5);
	ASSERT_EQ(s.segs.size(), 1u);
	ASSERT_EQ(s.ops.size(), 2u);
	EXPECT_EQ(s.ops[0].iov, (std::vector<IovElem>{{0, 1}, {1, 2}}));
	EXPECT_EQ(s.ops[0].length, 3u);
	EXPECT_EQ(s.ops[0].line, 6u);
	EXPECT_EQ(s.ops[1].line, 7u);
	EXPECT_EQ(s.ops[1].n, 1u);
}

TEST(Parse, SendLengthAndElementSyntax)
{
	Scenario s = parse_ok("send 0x1000+0x10 4K+1K length=0\nsend 1+1 length=18446744073709551615\n");
	ASSERT_EQ(s.ops.size(), 2u);
	EXPECT_EQ(s.ops[0].iov, (std::vector<IovElem>{{0x1000, 0x10}, {4096, 1024}}));
	EXPECT_EQ(s.ops[0].length, 0u);
	EXPECT_EQ(s.ops[1].length, kU64Max);
	// Op::operator== ignores the line but not the rest.
	Op a = s.ops[0], b = s.ops[0];
	b.line = 99;
	EXPECT_EQ(a, b);
	b.length.reset();
	EXPECT_FALSE(a == b);
}

TEST(Parse, ExpectLines)
{
	Scenario s = parse_ok(
		"expect bind -EINVAL\n"
		"sg 0 4K\n"
		"expect violation bind.sg_covers_dmabuf tcp.wmem_sum\n"
		"send 0+1\n"
		"expect violation frag.count   # after the ops is fine too\n");
	EXPECT_EQ(s.expect_bind_err, -kEINVAL);
	EXPECT_EQ(s.expect_violations,
		  (std::vector<std::string>{"bind.sg_covers_dmabuf", "tcp.wmem_sum", "frag.count"}));
	EXPECT_EQ(s.ops.size(), 1u);
	EXPECT_EQ(serialize_scenario(s),
		  "# niovcheck scenario\n"
		  "rules tx-autosize\n"
		  "dir tx\n"
		  "sg 0x0 0x1000\n"
		  "expect bind -EINVAL\n"
		  "expect violation bind.sg_covers_dmabuf\n"
		  "expect violation tcp.wmem_sum\n"
		  "expect violation frag.count\n"
		  "send 0x0+1\n");
	EXPECT_EQ(round_trip_diff(s), "");
	EXPECT_EQ(parse_ok("expect bind 0\n").expect_bind_err, 0);
	EXPECT_EQ(parse_ok("expect bind -E2BIG\n").expect_bind_err, -kE2BIG);
	EXPECT_EQ(parse_ok("expect bind -EOPNOTSUPP\n").expect_bind_err, -kEOPNOTSUPP);
	Scenario none = parse_ok("sg 0 4K\n");
	EXPECT_TRUE(none.expect_violations.empty());
	EXPECT_FALSE(none.expect_bind_err);
	// Every invariant id is accepted.
	for (const auto &inv : kInvariants)
		EXPECT_EQ(parse_ok("expect violation " + std::string(inv.id)).expect_violations,
			  std::vector<std::string>{std::string(inv.id)});
}

TEST(Parse, Limits)
{
	// 4096 segments are fine, 4097 are not.
	std::string segs;
	for (int i = 0; i < 4096; i++)
		segs += "sg " + std::to_string(i * 4096) + " 4K\n";
	EXPECT_EQ(parse_ok(segs).segs.size(), 4096u);
	EXPECT_EQ(parse_err(segs + "sg 0 4K\n"), "t.scn:4097: sg: the number of segments exceeds 4096 (limit)");

	// 4096 send elements are fine (the model answers -EINVAL above 1024).
	std::string send = "send";
	for (int i = 0; i < 4096; i++)
		send += " 0+1";
	Scenario s = parse_ok(send + " length=5\n");
	ASSERT_EQ(s.ops.size(), 1u);
	EXPECT_EQ(s.ops[0].iov.size(), 4096u);
	EXPECT_EQ(parse_err(send + " 0+1\n"), "t.scn:1: send: the number of elements exceeds 4096 (limit)");
	EXPECT_EQ(parse_err(send + " 0+1 length=5\n"), "t.scn:1: send: the number of elements exceeds 4096 (limit)");
	std::string huge_send = "free\nsend";
	for (int i = 0; i < 100000; i++)
		huge_send += " 0+1";
	EXPECT_EQ(parse_err(huge_send), "t.scn:2: send: the number of elements exceeds 4096 (limit)");

	// 100000 operations are fine, 100001 are not.
	std::string ops;
	for (int i = 0; i < 100000; i++)
		ops += "ack 1\n";
	EXPECT_EQ(parse_ok(ops).ops.size(), 100000u);
	EXPECT_EQ(parse_err(ops + "# comment\n\nfree\n"),
		  "t.scn:100003: the number of operations exceeds 100000 (limit)");

	// 16 MiB of input are fine, one byte more is not.
	std::string big(size_t{16} << 20, ' ');
	big[0] = '#';
	parse_ok(big);
	big += '\n';
	EXPECT_EQ(parse_err(big), "t.scn:1: input size exceeds 16777216 bytes (limit)");
}

TEST(Parse, LongLinesStayCheap)
{
	// A policy line may hold any number of overrides.
	std::string pol = "policy";
	for (int i = 0; i < 200000; i++)
		pol += i % 2 ? " truesize=zero" : " truesize=page";
	EXPECT_EQ(parse_ok(pol).cfg.policy.truesize, Truesize::zero);
	EXPECT_EQ(parse_err(pol + " truesize=bogus"), "t.scn:1: policy: unknown policy 'truesize=bogus'");

	std::string ack = "ack";
	for (int i = 0; i < 1000000; i++)
		ack += " 1";
	EXPECT_EQ(parse_err(ack), "t.scn:1: ack: unexpected argument '1'");

	// Linear time: a 15 MiB line of digits and a file of 8M empty lines
	// (ctest's scenario_long_lines bounds the time: a quadratic parser takes
	// hours here; a clock read inside the test failed on a loaded machine).
	EXPECT_EQ(parse_err("ack " + std::string(15u << 20, '9')),
		  "t.scn:1: ack: bad number '9999999999999999999999999999999999999999...'");
	parse_ok(std::string(8u << 20, '\n'));
	EXPECT_EQ(parse_err(std::string(8u << 20, '\n') + "x"), "t.scn:8388609: unknown keyword 'x'");
}

// ---------------------------------------------------------------------------
// parse_scenario: every error, exactly "FILE:LINE: message"

TEST(ParseErrors, Messages)
{
	const std::vector<std::pair<std::string, std::string>> cases = {
		// keywords and argument counts
		{"foo 1", "t.scn:1: unknown keyword 'foo'"},
		{"Device mlx5", "t.scn:1: unknown keyword 'Device'"},
		{"page_shift", "t.scn:1: page_shift: missing argument"},
		{"page_shift 12 13", "t.scn:1: page_shift: unexpected argument '13'"},
		{"sg 1", "t.scn:1: sg: missing arguments"},
		{"sg 1 2 3", "t.scn:1: sg: unexpected argument '3'"},
		{"ack", "t.scn:1: ack: missing argument"},
		{"split 1 2", "t.scn:1: split: unexpected argument '2'"},
		{"shift", "t.scn:1: shift: missing argument"},
		{"free 1", "t.scn:1: free: unexpected argument '1'"},
		{"rules", "t.scn:1: rules: missing argument"},
		{"rules baseline net-next", "t.scn:1: rules: unexpected argument 'net-next'"},
		{"device", "t.scn:1: device: missing argument"},
		{"dir tx rx", "t.scn:1: dir: unexpected argument 'rx'"},
		// numbers
		{"page_shift x", "t.scn:1: page_shift: bad number 'x'"},
		{"page_shift 13", "t.scn:1: page_shift: '13' is not 12, 14 or 16"},
		{"page_shift 0xd", "t.scn:1: page_shift: '0xd' is not 12, 14 or 16"},
		{"max_skb_frags 16", "t.scn:1: max_skb_frags: '16' out of range 17..45"},
		{"max_skb_frags 46", "t.scn:1: max_skb_frags: '46' out of range 17..45"},
		{"tx_max_frag_size 0", "t.scn:1: tx_max_frag_size: '0' out of range 1..4294967295"},
		{"tx_max_frag_size 4G", "t.scn:1: tx_max_frag_size: '4G' out of range 1..4294967295"},
		{"size_goal 0", "t.scn:1: size_goal: '0' out of range 1..16777216"},
		{"size_goal 2G", "t.scn:1: size_goal: '2G' out of range 1..16777216"},
		{"mss 7", "t.scn:1: mss: '7' out of range 8..65535"},
		{"mss 64K", "t.scn:1: mss: '64K' out of range 8..65535"},
		{"skb_head_truesize 2G", "t.scn:1: skb_head_truesize: '2G' out of range 0..1048576"},
		{"max_page_order 21", "t.scn:1: max_page_order: '21' out of range 0..20"},
		{"rx_buf_size 4G", "t.scn:1: rx_buf_size: '4G' out of range 0..4294967295"},
		{"rx_buf_size -1", "t.scn:1: rx_buf_size: bad number '-1'"},
		{"pp_order 64", "t.scn:1: pp_order: '64' out of range 0..63"},
		{"dmabuf_size 16E", "t.scn:1: dmabuf_size: bad number '16E'"},
		{"dmabuf_size 18446744073709551616",
		 "t.scn:1: dmabuf_size: bad number '18446744073709551616'"},
		{"dmabuf_size 16777216T", "t.scn:1: dmabuf_size: bad number '16777216T'"},
		{"sg x 1", "t.scn:1: sg: bad number 'x'"},
		{"sg 1 0x", "t.scn:1: sg: bad number '0x'"},
		{"ack -1", "t.scn:1: ack: bad number '-1'"},
		{"split 1.5K", "t.scn:1: split: bad number '1.5K'"},
		{"shift 0x1h", "t.scn:1: shift: bad number '0x1h'"},
		// names
		{"rules foo", "t.scn:1: rules: unknown preset 'foo' (" + preset_list() + ")"},
		{"device e1000", "t.scn:1: device: unknown device 'e1000' (none, mlx5, gve, fbnic or bnxt)"},
		{"dir up", "t.scn:1: dir: unknown direction 'up' (tx, rx or zcrx)"},
		{"zcrx_device 2", "t.scn:1: zcrx_device: expected 0 or 1, got '2'"},
		{"zcrx_device 0x1", "t.scn:1: zcrx_device: expected 0 or 1, got '0x1'"},
		{"policy", "t.scn:1: policy: missing KEY=VALUE"},
		{"policy truesize", "t.scn:1: policy: expected KEY=VALUE, got 'truesize'"},
		{"policy truesize=big", "t.scn:1: policy: unknown policy 'truesize=big'"},
		{"policy foo=bar", "t.scn:1: policy: unknown policy 'foo=bar'"},
		{"policy truesize=len =", "t.scn:1: policy: unknown policy '='"},
		// send
		{"send", "t.scn:1: send: missing OFFSET+LEN element"},
		{"send length=5", "t.scn:1: send: missing OFFSET+LEN element"},
		{"send 1", "t.scn:1: send: bad element '1' (want OFFSET+LEN)"},
		{"send 1+", "t.scn:1: send: bad element '1+' (want OFFSET+LEN)"},
		{"send +1", "t.scn:1: send: bad element '+1' (want OFFSET+LEN)"},
		{"send 1++1", "t.scn:1: send: bad element '1++1' (want OFFSET+LEN)"},
		{"send 1+2+3", "t.scn:1: send: bad element '1+2+3' (want OFFSET+LEN)"},
		{"send 0+18446744073709551616", "t.scn:1: send: bad element '0+18446744073709551616' (want OFFSET+LEN)"},
		{"send 1+2 length=x", "t.scn:1: send: bad length 'length=x'"},
		{"send 1+2 length=", "t.scn:1: send: bad length 'length='"},
		{"send length=1 1+2", "t.scn:1: send: 'length=' must be the last argument, got 'length=1'"},
		{"send 1+2 length=1 length=2", "t.scn:1: send: 'length=' must be the last argument, got 'length=1'"},
		// expect
		{"expect", "t.scn:1: expect: missing 'violation' or 'bind'"},
		{"expect clean", "t.scn:1: expect: unknown expectation 'clean' (violation or bind)"},
		{"expect violation", "t.scn:1: expect: violation: missing invariant id"},
		{"expect violation frag.count nope", "t.scn:1: expect: unknown invariant 'nope'"},
		{"expect bind", "t.scn:1: expect: bind: missing result"},
		{"expect bind 0 0", "t.scn:1: expect: bind: unexpected argument '0'"},
		{"expect bind EINVAL",
		 "t.scn:1: expect: bind: unknown result 'EINVAL' (0, -EINVAL, -E2BIG, -ENOMEM, -ERANGE, "
		 "-EOPNOTSUPP, ...)"},
		{"expect bind -22",
		 "t.scn:1: expect: bind: unknown result '-22' (0, -EINVAL, -E2BIG, -ENOMEM, -ERANGE, "
		 "-EOPNOTSUPP, ...)"},
		{"expect bind 0\nexpect bind 0", "t.scn:2: duplicate 'expect bind'"},
		// structure
		{"mss 100\n\nmss 200", "t.scn:3: duplicate 'mss'"},
		{"rules baseline\nrules baseline", "t.scn:2: duplicate 'rules'"},
		{"dir tx\ndir tx", "t.scn:2: duplicate 'dir'"},
		{"dmabuf_size 1\ndmabuf_size 1", "t.scn:2: duplicate 'dmabuf_size'"},
		{"rx_buf_size 0\nrx_buf_size 4096", "t.scn:2: duplicate 'rx_buf_size'"},
		{"policy truesize=len\nrules baseline", "t.scn:2: 'rules' after 'policy'"},
		{"free\ndevice mlx5", "t.scn:2: config after operations"},
		{"send 0+1\nsg 0 4K", "t.scn:2: config after operations"},
		{"ack 1\npolicy truesize=len", "t.scn:2: config after operations"},
		{"mss 100\nfree\nmss 100", "t.scn:3: config after operations"},
		{"split 1\nrules baseline", "t.scn:2: config after operations"},
		// quoting: truncated to 40 characters, non-printable bytes as \xNN
		{"device " + std::string(50, 'a'),
		 "t.scn:1: device: unknown device '" + std::string(40, 'a') +
			 "...' (none, mlx5, gve, fbnic or bnxt)"},
		{"dev\x01ice", "t.scn:1: unknown keyword 'dev\\x01ice'"},
		{std::string("mss 1\0", 6), "t.scn:1: mss: bad number '1\\x00'"},
		{"mss \xff\x7f", "t.scn:1: mss: bad number '\\xff\\x7f'"},
		{"mss 1\r\r\n", "t.scn:1: mss: bad number '1\\x0d'"},
		{"mss 1\v", "t.scn:1: mss: bad number '1\\x0b'"},
		{"\xef\xbb\xbfrules baseline", "t.scn:1: unknown keyword '\\xef\\xbb\\xbfrules'"},
	};
	for (const auto &[text, want] : cases) {
		std::string got = parse_err(text);
		EXPECT_EQ(got, want) << "input: " << text;
		std::string why;
		EXPECT_TRUE(well_formed_error(got, "t.scn", text, &why)) << why << ": " << got;
	}
}

TEST(ParseErrors, FirstErrorWinsAndLineNumbersCount)
{
	EXPECT_EQ(parse_err(std::string(kExample) + "bogus\nmss 1\n", "dir/ex.scn"),
		  "dir/ex.scn:18: unknown keyword 'bogus'");
	EXPECT_EQ(parse_err("# one\n\n   \nmss 1\nmss 2\n"), "t.scn:4: mss: '1' out of range 8..65535");
	// A file name with a newline still gives a one-line message.
	std::string msg = parse_err("x", "a\nb");
	EXPECT_EQ(msg, "a\\x0ab:1: unknown keyword 'x'");
}

// ---------------------------------------------------------------------------
// load_scenario_file

class TempDir : public ::testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/scenario_test.XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		dir_ = tmpl;
	}
	void TearDown() override
	{
		std::error_code ec;
		std::filesystem::remove_all(dir_, ec);
	}
	std::string write(const std::string &name, const std::string &text)
	{
		std::string path = dir_ + "/" + name;
		std::FILE *f = std::fopen(path.c_str(), "wb");
		EXPECT_NE(f, nullptr);
		if (f) {
			std::fwrite(text.data(), 1, text.size(), f);
			std::fclose(f);
		}
		return path;
	}
	std::string dir_;
};

TEST_F(TempDir, LoadGoodFile)
{
	std::string path = write("ex.scn", kExample);
	auto r = load_scenario_file(path);
	ASSERT_TRUE(r.scenario) << r.error.message;
	EXPECT_EQ(r.scenario->name, path);
	Scenario direct = parse_ok(kExample, path);
	EXPECT_EQ(diff_scenarios(*r.scenario, direct), "");
}

TEST_F(TempDir, LoadBadFileNamesPathAndLine)
{
	std::string path = write("bad.scn", "rules baseline\nmss 5\n");
	auto r = load_scenario_file(path);
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, path + ":2: mss: '5' out of range 8..65535");
}

TEST_F(TempDir, LoadTooLarge)
{
	std::string path = write("big.scn", std::string((size_t{16} << 20) + 1, '\n'));
	auto r = load_scenario_file(path);
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, path + ":1: input size exceeds 16777216 bytes (limit)");
}

TEST_F(TempDir, LoadUnreadable)
{
	std::string missing = dir_ + "/missing.scn";
	auto r = load_scenario_file(missing);
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, missing + ": cannot read: " + std::strerror(ENOENT));

	r = load_scenario_file(dir_);
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, dir_ + ": a folder, not a regular file");

	// A FIFO would block the open until a writer came: refused unread.
	const std::string fifo = dir_ + "/fifo.scn";
	ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
	r = load_scenario_file(fifo);
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, fifo + ": a FIFO, not a regular file");

	r = load_scenario_file("");
	ASSERT_FALSE(r.scenario);
	EXPECT_EQ(r.error.message, ": cannot read: " + std::string(std::strerror(ENOENT)));
}

// ---------------------------------------------------------------------------
// serialize_scenario

TEST(Serialize, ExampleIsCanonical)
{
	Scenario s = parse_ok(kExample, "example.scn");
	EXPECT_EQ(serialize_scenario(s),
		  "# niovcheck scenario\n"
		  "rules tx-autosize\n"
		  "policy truesize=page\n"
		  "device bnxt\n"
		  "tx_max_frag_size 32768\n"
		  "dir tx\n"
		  "dmabuf_size 0x600000\n"
		  "sg 0x40000000 0x200000\n"
		  "sg 0x80200000 0x400000\n"
		  "send 0x1ff000+65536\n"
		  "send 0x0+4096 0x2000+100 length=1000\n"
		  "ack 8688\n"
		  "split 14480\n"
		  "shift 100\n"
		  "free\n");
	EXPECT_EQ(round_trip_diff(s), "");
}

TEST(Serialize, DefaultsAreOmitted)
{
	Scenario s;
	EXPECT_EQ(serialize_scenario(s), "# niovcheck scenario\nrules tx-autosize\ndir tx\n");
	s.cfg.preset = Preset::baseline;
	s.cfg.policy = preset_policies(Preset::baseline);
	EXPECT_EQ(serialize_scenario(s), "# niovcheck scenario\nrules baseline\ndir tx\n");
	// A policy equal to the default preset's but not to its own preset's.
	s.cfg.policy = preset_policies(Preset::tx_autosize);
	EXPECT_EQ(serialize_scenario(s),
		  "# niovcheck scenario\nrules baseline\n"
		  "policy rx_attr=present bind=freelist tx_niov=auto lookup=niov truesize=len "
		  "max_frag=device bnxt_frags=segment\n"
		  "dir tx\n");
	EXPECT_EQ(round_trip_diff(s), "");
}

TEST(Serialize, RoundTripSeveral)
{
	const std::vector<std::string> texts = {
		kExample,
		"",
		"rules baseline\n",
		"rules linux-6.12\ndir rx\nsg 0 0x1800\nsg 0x100000 0x4000\n",
		"rules baseline-unfixed\npolicy paths=rx\n",
		"rules net-next\npolicy bind=genpool rx_attr=absent\ndir rx\nrx_buf_size 16K\npp_order 2\n"
		"sg 0 64K\nsg 0x100000 64K\n",
		"dir zcrx\nzcrx_device 0\nrx_buf_size 0\nsg 0x1000 0x1000\ndmabuf_size 0\n",
		"page_shift 14\nmax_skb_frags 45\ndevice fbnic\nsize_goal 1\nmss 8\nskb_head_truesize 0\n"
		"max_page_order 0\ntx_max_frag_size 1\n",
		"sg 0xffffffffffffffff 0xffffffffffffffff\nsg 1 1\n",
		"send 0xffffffffffffffff+18446744073709551615 length=18446744073709551615\n"
		"ack 18446744073709551615\nsplit 0\nshift 0\nfree\nfree\nsend 0+0 0+0 0+0\n",
		"policy rx_attr=absent bind=genpool tx_niov=page lookup=page truesize=page "
		"max_frag=none bnxt_frags=linearize\n",  // tx-autosize overridden to baseline's values
	};
	for (const auto &text : texts) {
		Scenario s = parse_ok(text, "rt.scn");
		EXPECT_EQ(round_trip_diff(s), "") << text;
	}
}

// ---------------------------------------------------------------------------
// properties

uint64_t any_u64()
{
	switch (*rc::gen::inRange(0, 4)) {
	case 0:
		return *rc::gen::arbitrary<uint64_t>();
	case 1:
		return *rc::gen::element<uint64_t>(0, 1, 4095, 4096, 65536, uint64_t{1} << 21,
						    uint64_t{1} << 32, uint64_t{1} << 63,
						    kU64Max - 1, kU64Max);
	case 2:
		return *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 24);
	default: {
		uint64_t hi = *rc::gen::arbitrary<uint32_t>(), lo = *rc::gen::arbitrary<uint32_t>();
		return hi << 32 | lo;
	}
	}
}

template <typename E>
E any_enum(int count)
{
	return static_cast<E>(*rc::gen::inRange(0, count));
}

// Any scenario the parser can produce (so dmabuf_size is the saturating sum
// of the segments unless it is set).
Scenario random_scenario()
{
	Scenario s;
	s.name = *rc::gen::element<std::string>("r.scn", "dir/x.scn", "");
	Config &c = s.cfg;
	c.preset = any_enum<Preset>(static_cast<int>(kNumPresets));
	c.policy = preset_policies(c.preset);
	if (*rc::gen::arbitrary<bool>()) {
		c.policy.rx_attr = any_enum<RxAttr>(2);
		c.policy.bind = any_enum<BindStyle>(3);
		c.policy.tx_niov = any_enum<TxNiov>(3);
		c.policy.lookup = any_enum<Lookup>(2);
		c.policy.truesize = any_enum<Truesize>(3);
		c.policy.max_frag = any_enum<MaxFrag>(2);
		c.policy.bnxt_frags = any_enum<BnxtFrags>(2);
		c.policy.paths = any_enum<Paths>(2);
	}
	c.page_shift = *rc::gen::element(12u, 14u, 16u);
	c.max_skb_frags = *rc::gen::inRange(17u, 46u);
	c.device = any_enum<Device>(5);
	if (*rc::gen::arbitrary<bool>())
		c.tx_max_frag_size = static_cast<uint32_t>(*rc::gen::inRange<uint64_t>(1, uint64_t{1} << 32));
	c.size_goal = *rc::gen::inRange<uint32_t>(1, kMaxSizeGoal + 1);
	c.mss = *rc::gen::inRange<uint32_t>(8, 65536);
	c.skb_head_truesize = *rc::gen::inRange<uint32_t>(0, kMaxHeadTruesize + 1);
	c.max_page_order = *rc::gen::inRange(0u, 21u);
	s.dir = any_enum<Dir>(3);
	if (*rc::gen::arbitrary<bool>())
		s.rx_buf_size = *rc::gen::arbitrary<uint32_t>();
	if (*rc::gen::arbitrary<bool>())
		s.pp_order = *rc::gen::inRange(0u, 64u);
	s.zcrx_device = *rc::gen::arbitrary<bool>();

	size_t nsegs = *rc::gen::inRange<size_t>(0, 12);
	for (size_t i = 0; i < nsegs; i++)
		s.segs.push_back({any_u64(), any_u64()});
	s.dmabuf_size_set = *rc::gen::arbitrary<bool>();
	if (s.dmabuf_size_set) {
		s.dmabuf_size = any_u64();
	} else {
		uint64_t sum = 0;
		for (const auto &seg : s.segs)
			sum = seg.len > kU64Max - sum ? kU64Max : sum + seg.len;
		s.dmabuf_size = sum;
	}

	if (*rc::gen::arbitrary<bool>())
		s.expect_bind_err = *rc::gen::element(0, -kEFAULT, -kEBADF, -kENOMEM, -kEINVAL, -kERANGE,
						      -kE2BIG, -kEMSGSIZE, -kEOPNOTSUPP);
	size_t nexp = *rc::gen::inRange<size_t>(0, 4);
	for (size_t i = 0; i < nexp; i++)
		s.expect_violations.emplace_back(
			kInvariants[*rc::gen::inRange<size_t>(0, kInvariants.size())].id);

	size_t nops = *rc::gen::inRange<size_t>(0, 16);
	for (size_t i = 0; i < nops; i++) {
		Op op;
		op.kind = any_enum<OpKind>(5);
		switch (op.kind) {
		case OpKind::send: {
			size_t n = *rc::gen::inRange<size_t>(1, 6);
			for (size_t j = 0; j < n; j++)
				op.iov.push_back({any_u64(), any_u64()});
			if (*rc::gen::arbitrary<bool>())
				op.length = any_u64();
			break;
		}
		case OpKind::ack:
		case OpKind::split:
		case OpKind::shift:
			op.n = any_u64();
			break;
		case OpKind::free:
			break;
		}
		s.ops.push_back(std::move(op));
	}
	return s;
}

void check_parse_outcome(const std::string &text, const ParseResult &r, std::string_view file)
{
	if (!r.scenario) {
		std::string why;
		RC_ASSERT(well_formed_error(r.error.message, file, text, &why));
		return;
	}
	RC_ASSERT(r.scenario->name == file);
	std::string d = round_trip_diff(*r.scenario);
	if (!d.empty())
		RC_FAIL(d);
}

RC_GTEST_PROP(ScenarioProperty, SerializeParseRoundTrips, ())
{
	Scenario s = random_scenario();
	std::string d = round_trip_diff(s);
	if (!d.empty())
		RC_FAIL(d);
}

RC_GTEST_PROP(ScenarioProperty, RandomBytesNeverCrash, ())
{
	auto text = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
	check_parse_outcome(text, parse_scenario(text, "fuzz.scn"), "fuzz.scn");
}

RC_GTEST_PROP(ScenarioProperty, RandomPrintableTextNeverCrashes, (const std::string &text))
{
	check_parse_outcome(text, parse_scenario(text, "fuzz.scn"), "fuzz.scn");
}

// Lines of plausible tokens: reaches the deeper paths that random bytes miss.
RC_GTEST_PROP(ScenarioProperty, TokenSoupNeverCrashes, ())
{
	static const std::vector<std::string> kWords = {
		"rules", "policy", "page_shift", "max_skb_frags", "device", "tx_max_frag_size",
		"size_goal", "mss", "skb_head_truesize", "max_page_order", "dir", "rx_buf_size",
		"pp_order", "zcrx_device", "dmabuf_size", "sg", "send", "ack", "split", "shift",
		"free", "baseline", "net-next", "tx-autosize", "mlx5", "bnxt", "gve", "tx", "zcrx",
		"truesize=page", "lookup=niov", "tx_niov=auto-noaddr", "bind=x", "=", "0", "1",
		"12", "14", "17", "45", "64K", "2M", "0x1000", "0x", "K", "-1", "16E",
		"18446744073709551615", "18446744073709551616", "0+4K", "0x2000+100", "1+", "+1",
		"length=10", "length=", "#", "# c", "expect", "violation", "bind", "-EINVAL",
		"frag.count", "tcp.wmem_sum", "\t", "\r", std::string(1, '\0'), "\xff",
	};
	size_t nlines = *rc::gen::inRange<size_t>(0, 12);
	std::string text;
	for (size_t i = 0; i < nlines; i++) {
		size_t nw = *rc::gen::inRange<size_t>(0, 5);
		for (size_t j = 0; j < nw; j++) {
			if (j)
				text += *rc::gen::element<std::string>(" ", "\t", "  ");
			text += *rc::gen::elementOf(kWords);
		}
		text += *rc::gen::element<std::string>("\n", "\r\n", "\n\n");
	}
	check_parse_outcome(text, parse_scenario(text, "soup.scn"), "soup.scn");
}

// Valid scenarios with a few bytes changed: mostly near-valid input.
RC_GTEST_PROP(ScenarioProperty, MutatedScenariosNeverCrash, ())
{
	std::string text = serialize_scenario(random_scenario());
	size_t nmut = *rc::gen::inRange<size_t>(1, 4);
	for (size_t i = 0; i < nmut; i++) {
		size_t pos = *rc::gen::inRange<size_t>(0, text.size() + 1);
		char c = *rc::gen::oneOf(rc::gen::arbitrary<char>(),
					 rc::gen::element(' ', '\n', '#', '+', '=', 'K', 'x', '0', '9'));
		switch (*rc::gen::inRange(0, 3)) {
		case 0:
			text.insert(pos, 1, c);
			break;
		case 1:
			if (pos < text.size())
				text.erase(pos, 1);
			break;
		default:
			if (pos < text.size())
				text[pos] = c;
			break;
		}
	}
	check_parse_outcome(text, parse_scenario(text, "mut.scn"), "mut.scn");
}

}  // namespace
