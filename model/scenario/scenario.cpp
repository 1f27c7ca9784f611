// The scenario text format: a strict, linear-time, line-based parser and the
// canonical writer.  parse_scenario(serialize_scenario(s)) == s for every
// scenario the parser can produce.
#include "scenario.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bounded_file.hpp"
#include "config.hpp"
#include "errno.hpp"
#include "invariants.hpp"
#include "limits.hpp"

namespace niov {

namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

// limits.hpp: the input size, operations, segments and send elements.  The
// element limit is the parser's; the model answers -EINVAL above kUioMaxIov.
// "send" + elements + "length=N": the tokenizer never keeps more than one
// token past this, so a huge line costs no memory.
constexpr size_t kMaxTokens = 1 + kMaxSendElems + 1;
constexpr size_t kQuoteMax = 40;

// Non-printable bytes as \xNN so that every message stays on one line.
void append_escaped(std::string &out, std::string_view s)
{
	static constexpr char kHex[] = "0123456789abcdef";
	for (unsigned char c : s) {
		if (c >= 0x20 && c < 0x7f) {
			out += static_cast<char>(c);
		} else {
			out += "\\x";
			out += kHex[c >> 4];
			out += kHex[c & 15];
		}
	}
}

std::string quote(std::string_view tok)
{
	std::string q = "'";
	append_escaped(q, tok.substr(0, kQuoteMax));
	if (tok.size() > kQuoteMax)
		q += "...";
	q += '\'';
	return q;
}

std::string dec(uint64_t v) { return std::to_string(v); }

std::string hex(uint64_t v)
{
	char buf[2 + 16];
	buf[0] = '0';
	buf[1] = 'x';
	auto r = std::to_chars(buf + 2, buf + sizeof(buf), v, 16);
	return std::string(buf, r.ptr);
}

enum class Kw : uint8_t {
	rules,
	policy,
	page_shift,
	max_skb_frags,
	device,
	tx_max_frag_size,
	size_goal,
	mss,
	skb_head_truesize,
	max_page_order,
	dir,
	rx_buf_size,
	pp_order,
	zcrx_device,
	dmabuf_size,
	sg,
	send,
	ack,
	split,
	shift,
	free,
	expect,
	count_
};

struct KwInfo {
	std::string_view name;
	bool op;	// an operation line (send/ack/split/shift/free)
	bool once;	// a config keyword that may appear at most once
	bool anywhere = false;  // neither config nor op: allowed after the ops
};

constexpr std::array<KwInfo, static_cast<size_t>(Kw::count_)> kKeywords{{
	{"rules", false, true},
	{"policy", false, false},
	{"page_shift", false, true},
	{"max_skb_frags", false, true},
	{"device", false, true},
	{"tx_max_frag_size", false, true},
	{"size_goal", false, true},
	{"mss", false, true},
	{"skb_head_truesize", false, true},
	{"max_page_order", false, true},
	{"dir", false, true},
	{"rx_buf_size", false, true},
	{"pp_order", false, true},
	{"zcrx_device", false, true},
	{"dmabuf_size", false, true},
	{"sg", false, false},
	{"send", true, false},
	{"ack", true, false},
	{"split", true, false},
	{"shift", true, false},
	{"free", true, false},
	{"expect", false, false, true},
}};

// The bind results an "expect bind" line may name.
constexpr std::array<std::pair<std::string_view, int>, 9> kBindErrs{{
	{"0", 0},
	{"-EFAULT", -kEFAULT},
	{"-EBADF", -kEBADF},
	{"-ENOMEM", -kENOMEM},
	{"-EINVAL", -kEINVAL},
	{"-ERANGE", -kERANGE},
	{"-E2BIG", -kE2BIG},
	{"-EMSGSIZE", -kEMSGSIZE},
	{"-EOPNOTSUPP", -kEOPNOTSUPP},
}};

std::string_view bind_err_name(int e)
{
	for (const auto &[n, v] : kBindErrs)
		if (v == e)
			return n;
	return {};
}

bool known_invariant(std::string_view id)
{
	for (const auto &inv : kInvariants)
		if (inv.id == id)
			return true;
	return false;
}

std::optional<Kw> find_keyword(std::string_view s)
{
	for (size_t i = 0; i < kKeywords.size(); i++)
		if (kKeywords[i].name == s)
			return static_cast<Kw>(i);
	return std::nullopt;
}

class Parser {
public:
	explicit Parser(std::string_view file) : file_(file) {}

	ParseResult run(std::string_view text)
	{
		ParseResult r;
		scen_.name = std::string(file_);
		if (text.size() > kMaxInputBytes) {
			line_ = 1;
			fail("input size exceeds " + dec(kMaxInputBytes) + " bytes (limit)");
			r.error.message = std::move(err_);
			return r;
		}
		size_t pos = 0;
		while (pos < text.size()) {
			size_t nl = text.find('\n', pos);
			std::string_view ln = nl == std::string_view::npos
						      ? text.substr(pos)
						      : text.substr(pos, nl - pos);
			pos = nl == std::string_view::npos ? text.size() : nl + 1;
			++line_;
			if (!parse_line(ln)) {
				r.error.message = std::move(err_);
				return r;
			}
		}
		if (!scen_.dmabuf_size_set) {
			uint64_t sum = 0;
			for (const auto &seg : scen_.segs)
				sum = seg.len > kU64Max - sum ? kU64Max : sum + seg.len;
			scen_.dmabuf_size = sum;
		}
		r.scenario = std::move(scen_);
		return r;
	}

private:
	std::string_view file_;
	uint32_t line_ = 0;
	std::string err_;
	Scenario scen_;
	std::vector<std::string_view> toks_;
	bool too_many_tokens_ = false;
	std::string_view line_rest_;
	std::array<bool, static_cast<size_t>(Kw::count_)> seen_{};
	bool ops_started_ = false;
	std::string_view kw_name_;

	bool fail(const std::string &msg)
	{
		err_.clear();
		append_escaped(err_, file_);
		err_ += ':';
		err_ += std::to_string(line_);
		err_ += ": ";
		err_ += msg;
		return false;
	}

	// kw: message
	bool kfail(const std::string &msg) { return fail(std::string(kw_name_) + ": " + msg); }

	// Splits off the next space/tab separated token; false at the end.
	static bool next_token(std::string_view &rest, std::string_view &tok)
	{
		size_t i = 0;
		while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t'))
			i++;
		if (i == rest.size()) {
			rest = {};
			return false;
		}
		size_t start = i;
		while (i < rest.size() && rest[i] != ' ' && rest[i] != '\t')
			i++;
		tok = rest.substr(start, i - start);
		rest.remove_prefix(i);
		return true;
	}

	// Keeps at most kMaxTokens + 1 tokens and notes whether there were more;
	// line_rest_ is what follows the keyword, for lines that stream.
	void tokenize(std::string_view ln)
	{
		toks_.clear();
		too_many_tokens_ = false;
		line_rest_ = {};
		size_t hash = ln.find('#');
		if (hash != std::string_view::npos)
			ln = ln.substr(0, hash);
		if (!ln.empty() && ln.back() == '\r')  // CRLF files
			ln.remove_suffix(1);
		std::string_view tok;
		while (next_token(ln, tok)) {
			if (toks_.size() == 1)
				line_rest_ = std::string_view(tok.data(), ln.data() + ln.size() - tok.data());
			if (toks_.size() > kMaxTokens) {
				too_many_tokens_ = true;
				break;
			}
			toks_.push_back(tok);
		}
	}

	// Exactly n arguments after the keyword.
	bool want_args(size_t n)
	{
		size_t have = toks_.size() - 1;
		if (have < n)
			return kfail(n == 1 ? "missing argument" : "missing arguments");
		if (have > n)
			return kfail("unexpected argument " + quote(toks_[1 + n]));
		return true;
	}

	bool number(std::string_view tok, uint64_t &out)
	{
		if (!parse_number(tok, out))
			return kfail("bad number " + quote(tok));
		return true;
	}

	bool ranged(std::string_view tok, uint64_t lo, uint64_t hi, uint64_t &out)
	{
		if (!number(tok, out))
			return false;
		if (out < lo || out > hi)
			return kfail(quote(tok) + " out of range " + dec(lo) + ".." + dec(hi));
		return true;
	}

	// The single argument of a numeric config keyword.
	bool arg_ranged(uint64_t lo, uint64_t hi, uint64_t &out)
	{
		return want_args(1) && ranged(toks_[1], lo, hi, out);
	}

	bool parse_line(std::string_view ln)
	{
		tokenize(ln);
		if (toks_.empty())
			return true;
		auto kw = find_keyword(toks_[0]);
		if (!kw)
			return fail("unknown keyword " + quote(toks_[0]));
		const KwInfo &info = kKeywords[static_cast<size_t>(*kw)];
		kw_name_ = info.name;
		if (!info.op && !info.anywhere && ops_started_)
			return fail("config after operations");
		if (info.once) {
			auto &seen = seen_[static_cast<size_t>(*kw)];
			if (seen)
				return fail("duplicate '" + std::string(info.name) + "'");
			seen = true;
		}
		if (info.op) {
			ops_started_ = true;
			if (scen_.ops.size() >= kMaxScenarioOps)
				return fail("the number of operations exceeds " + dec(kMaxScenarioOps) + " (limit)");
		}

		Config &cfg = scen_.cfg;
		uint64_t v = 0;
		switch (*kw) {
		case Kw::rules: {
			if (seen_[static_cast<size_t>(Kw::policy)])
				return fail("'rules' after 'policy'");
			if (!want_args(1))
				return false;
			auto p = parse_preset(toks_[1]);
			if (!p)
				return kfail("unknown preset " + quote(toks_[1]) + " (" + preset_list() + ")");
			cfg.preset = *p;
			cfg.policy = preset_policies(*p);
			return true;
		}
		case Kw::policy: {
			seen_[static_cast<size_t>(Kw::policy)] = true;
			if (toks_.size() < 2)
				return kfail("missing KEY=VALUE");
			// Streamed: a policy line may hold any number of overrides.
			std::string_view rest = line_rest_, t;
			while (next_token(rest, t)) {
				size_t eq = t.find('=');
				if (eq == std::string_view::npos)
					return kfail("expected KEY=VALUE, got " + quote(t));
				if (!apply_policy(cfg.policy, t.substr(0, eq), t.substr(eq + 1)))
					return kfail("unknown policy " + quote(t));
			}
			return true;
		}
		case Kw::page_shift:
			if (!want_args(1) || !number(toks_[1], v))
				return false;
			if (v != 12 && v != 14 && v != 16)
				return kfail(quote(toks_[1]) + " is not 12, 14 or 16");
			cfg.page_shift = static_cast<unsigned>(v);
			return true;
		case Kw::max_skb_frags:
			if (!arg_ranged(kMinMaxSkbFrags, kMaxMaxSkbFrags, v))
				return false;
			cfg.max_skb_frags = static_cast<unsigned>(v);
			return true;
		case Kw::device: {
			if (!want_args(1))
				return false;
			auto d = parse_device(toks_[1]);
			if (!d)
				return kfail("unknown device " + quote(toks_[1]) +
					     " (none, mlx5, gve, fbnic or bnxt)");
			cfg.device = *d;
			return true;
		}
		case Kw::tx_max_frag_size:
			if (!arg_ranged(1, kU32Max, v))
				return false;
			cfg.tx_max_frag_size = static_cast<uint32_t>(v);
			return true;
		case Kw::size_goal:
			if (!arg_ranged(1, kMaxSizeGoal, v))
				return false;
			cfg.size_goal = static_cast<uint32_t>(v);
			return true;
		case Kw::mss:
			if (!arg_ranged(8, 65535, v))
				return false;
			cfg.mss = static_cast<uint32_t>(v);
			return true;
		case Kw::skb_head_truesize:
			if (!arg_ranged(0, kMaxHeadTruesize, v))
				return false;
			cfg.skb_head_truesize = static_cast<uint32_t>(v);
			return true;
		case Kw::max_page_order:
			if (!arg_ranged(0, 20, v))
				return false;
			cfg.max_page_order = static_cast<unsigned>(v);
			return true;
		case Kw::dir: {
			if (!want_args(1))
				return false;
			auto d = parse_dir(toks_[1]);
			if (!d)
				return kfail("unknown direction " + quote(toks_[1]) +
					     " (tx, rx or zcrx)");
			scen_.dir = *d;
			return true;
		}
		case Kw::rx_buf_size:
			if (!arg_ranged(0, kU32Max, v))
				return false;
			scen_.rx_buf_size = static_cast<uint32_t>(v);
			return true;
		case Kw::pp_order:
			if (!arg_ranged(0, 63, v))
				return false;
			scen_.pp_order = static_cast<unsigned>(v);
			return true;
		case Kw::zcrx_device:
			if (!want_args(1))
				return false;
			if (toks_[1] == "0")
				scen_.zcrx_device = false;
			else if (toks_[1] == "1")
				scen_.zcrx_device = true;
			else
				return kfail("expected 0 or 1, got " + quote(toks_[1]));
			return true;
		case Kw::dmabuf_size:
			if (!arg_ranged(0, kU64Max, v))
				return false;
			scen_.dmabuf_size = v;
			scen_.dmabuf_size_set = true;
			return true;
		case Kw::sg: {
			if (!want_args(2))
				return false;
			DmaSeg seg;
			if (!number(toks_[1], seg.addr) || !number(toks_[2], seg.len))
				return false;
			if (scen_.segs.size() >= kMaxScenarioSegs)
				return kfail("the number of segments exceeds " + dec(kMaxScenarioSegs) + " (limit)");
			scen_.segs.push_back(seg);
			return true;
		}
		case Kw::send:
			return parse_send();
		case Kw::expect:
			return parse_expect();
		case Kw::ack:
		case Kw::split:
		case Kw::shift: {
			if (!arg_ranged(0, kU64Max, v))
				return false;
			Op op;
			op.kind = *kw == Kw::ack     ? OpKind::ack
				  : *kw == Kw::split ? OpKind::split
						     : OpKind::shift;
			op.n = v;
			op.line = line_;
			scen_.ops.push_back(std::move(op));
			return true;
		}
		case Kw::free: {
			if (!want_args(0))
				return false;
			Op op;
			op.kind = OpKind::free;
			op.line = line_;
			scen_.ops.push_back(std::move(op));
			return true;
		}
		case Kw::count_:
			break;
		}
		return fail("internal error");
	}

	// expect violation ID [ID...]   (may repeat)
	// expect bind ERR               (at most once; 0 or -EINVAL style)
	bool parse_expect()
	{
		if (toks_.size() < 2)
			return kfail("missing 'violation' or 'bind'");
		if (toks_[1] == "violation") {
			if (toks_.size() < 3)
				return kfail("violation: missing invariant id");
			// Streamed like policy: any number of ids on one line.
			std::string_view rest = line_rest_, t;
			next_token(rest, t);  // "violation"
			while (next_token(rest, t)) {
				if (!known_invariant(t))
					return kfail("unknown invariant " + quote(t));
				scen_.expect_violations.emplace_back(t);
			}
			return true;
		}
		if (toks_[1] == "bind") {
			if (scen_.expect_bind_err)
				return fail("duplicate 'expect bind'");
			if (toks_.size() < 3)
				return kfail("bind: missing result");
			if (toks_.size() > 3)
				return kfail("bind: unexpected argument " + quote(toks_[3]));
			for (const auto &[n, v] : kBindErrs) {
				if (n == toks_[2]) {
					scen_.expect_bind_err = v;
					return true;
				}
			}
			return kfail("bind: unknown result " + quote(toks_[2]) +
				     " (0, -EINVAL, -E2BIG, -ENOMEM, -ERANGE, -EOPNOTSUPP, ...)");
		}
		return kfail("unknown expectation " + quote(toks_[1]) + " (violation or bind)");
	}

	bool parse_send()
	{
		static constexpr std::string_view kLength = "length=";
		Op op;
		op.kind = OpKind::send;
		op.line = line_;
		if (too_many_tokens_)
			return kfail("the number of elements exceeds " + dec(kMaxSendElems) + " (limit)");
		size_t end = toks_.size();
		if (end > 1 && toks_[end - 1].substr(0, kLength.size()) == kLength) {
			std::string_view t = toks_[end - 1];
			uint64_t v = 0;
			if (!parse_number(t.substr(kLength.size()), v))
				return kfail("bad length " + quote(t));
			op.length = v;
			end--;
		}
		if (end < 2)
			return kfail("missing OFFSET+LEN element");
		if (end - 1 > kMaxSendElems)
			return kfail("the number of elements exceeds " + dec(kMaxSendElems) + " (limit)");
		op.iov.reserve(end - 1);
		for (size_t i = 1; i < end; i++) {
			std::string_view t = toks_[i];
			if (t.substr(0, kLength.size()) == kLength)
				return kfail("'length=' must be the last argument, got " + quote(t));
			size_t plus = t.find('+');
			IovElem e;
			if (plus == std::string_view::npos || !parse_number(t.substr(0, plus), e.base) ||
			    !parse_number(t.substr(plus + 1), e.len))
				return kfail("bad element " + quote(t) + " (want OFFSET+LEN)");
			op.iov.push_back(e);
		}
		scen_.ops.push_back(std::move(op));
		return true;
	}
};

}  // namespace

bool parse_number(std::string_view s, uint64_t &out)
{
	if (s.empty())
		return false;
	unsigned shift = 0;
	switch (s.back()) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	default:
		break;
	}
	if (shift)
		s.remove_suffix(1);
	if (s.empty())
		return false;

	uint64_t v = 0;
	if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s.remove_prefix(2);
		if (s.empty())
			return false;
		for (char c : s) {
			unsigned d;
			if (c >= '0' && c <= '9')
				d = static_cast<unsigned>(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = static_cast<unsigned>(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = static_cast<unsigned>(c - 'A' + 10);
			else
				return false;
			if (v > (kU64Max >> 4))
				return false;
			v = (v << 4) | d;
		}
	} else {
		for (char c : s) {
			if (c < '0' || c > '9')
				return false;
			unsigned d = static_cast<unsigned>(c - '0');
			if (v > (kU64Max - d) / 10)
				return false;
			v = v * 10 + d;
		}
	}
	if (shift) {
		if (v > (kU64Max >> shift))
			return false;
		v <<= shift;
	}
	out = v;
	return true;
}

ParseResult parse_scenario(std::string_view text, std::string_view file_name)
{
	Parser p(file_name);
	return p.run(text);
}

ParseResult load_scenario_file(const std::string &path)
{
	// A regular file within the input limit: a FIFO would block the read,
	// /dev/zero would never end it.
	std::string text;
	try {
		text = read_bounded(path, kMaxInputBytes);
	} catch (const FileError &e) {
		ParseResult r;
		r.error.message = e.what();
		return r;
	}
	return parse_scenario(text, path);
}

std::string serialize_scenario(const Scenario &s)
{
	const Config &c = s.cfg;
	const Config dc;
	const Scenario ds;
	std::string out = "# niovcheck scenario\n";
	out += "rules ";
	out += name(c.preset);
	out += '\n';

	// Only the policies that differ from the preset, in policies_string order.
	if (const std::string line = policy_overrides(c.policy, preset_policies(c.preset)); !line.empty())
		out += "policy " + line + '\n';

	auto kv = [&out](std::string_view key, const std::string &value) {
		out += key;
		out += ' ';
		out += value;
		out += '\n';
	};
	if (c.page_shift != dc.page_shift)
		kv("page_shift", dec(c.page_shift));
	if (c.max_skb_frags != dc.max_skb_frags)
		kv("max_skb_frags", dec(c.max_skb_frags));
	if (c.device != dc.device)
		kv("device", std::string(name(c.device)));
	if (c.tx_max_frag_size)
		kv("tx_max_frag_size", dec(*c.tx_max_frag_size));
	if (c.size_goal != dc.size_goal)
		kv("size_goal", dec(c.size_goal));
	if (c.mss != dc.mss)
		kv("mss", dec(c.mss));
	if (c.skb_head_truesize != dc.skb_head_truesize)
		kv("skb_head_truesize", dec(c.skb_head_truesize));
	if (c.max_page_order != dc.max_page_order)
		kv("max_page_order", dec(c.max_page_order));
	kv("dir", std::string(name(s.dir)));
	if (s.rx_buf_size)
		kv("rx_buf_size", dec(*s.rx_buf_size));
	if (s.pp_order)
		kv("pp_order", dec(*s.pp_order));
	if (s.zcrx_device != ds.zcrx_device)
		kv("zcrx_device", s.zcrx_device ? "1" : "0");
	if (s.dmabuf_size_set)
		kv("dmabuf_size", hex(s.dmabuf_size));
	for (const auto &seg : s.segs)
		out += "sg " + hex(seg.addr) + ' ' + hex(seg.len) + '\n';
	if (s.expect_bind_err) {
		std::string_view n = bind_err_name(*s.expect_bind_err);
		// Only the parser's values round-trip; others are written as a
		// comment rather than as a line the parser would reject.
		if (n.empty())
			out += "# expect bind " + std::to_string(*s.expect_bind_err) + " (unknown)\n";
		else
			kv("expect bind", std::string(n));
	}
	for (const auto &id : s.expect_violations)
		kv("expect violation", id);

	for (const auto &op : s.ops) {
		switch (op.kind) {
		case OpKind::send:
			out += "send";
			for (const auto &e : op.iov)
				out += ' ' + hex(e.base) + '+' + dec(e.len);
			if (op.length)
				out += " length=" + dec(*op.length);
			out += '\n';
			break;
		case OpKind::ack:
			kv("ack", dec(op.n));
			break;
		case OpKind::split:
			kv("split", dec(op.n));
			break;
		case OpKind::shift:
			kv("shift", dec(op.n));
			break;
		case OpKind::free:
			out += "free\n";
			break;
		}
	}
	return out;
}

}  // namespace niov
