// Byte layout (B = one byte, N = a number, see number.hpp; [..] = only when
// its flag bit is set):
//
//   B preset   B policy [B policy bits]   B page_shift   B max_skb_frags
//   B device   B dir   B flags   B flags2
//   [N tx_max_frag_size] [N size_goal] [N mss] [N skb_head_truesize]
//   [B max_page_order] [N rx_buf_size] [B pp_order]
//   B segment count, then N addr N len per segment   [N dmabuf_size]
//   operations until the input ends:
//     bind:  N base N len                       (a one-element probe send of
//                                               at most 64 KiB)
//     send:  B kind, then
//              send:  B count [N count] B send flags, N base N len per
//                     element [N length]
//              ack/split/shift: N bytes
//              free
//     config: none (the rest is ignored)
//
// Bytes past the end read as 0, and 0 everywhere is the tx-autosize preset
// with the default configuration, so short inputs are still scenarios.
#include "decode.hpp"

#include <algorithm>
#include <array>

#include "buffer_stash.hpp"
#include "number.hpp"

namespace niov::fuzz {

namespace {

// Index order puts the series under test first: a zero byte picks it.
// The eras added later come after, so earlier inputs decode as they did.
constexpr std::array<Preset, 5> kPresets{Preset::tx_autosize, Preset::net_next, Preset::baseline,
					 Preset::linux_6_12, Preset::baseline_unfixed};
// The order is the corpus format's (a byte picks one), so a new preset goes
// at the end; a preset the decoder cannot pick stops the build here.
static_assert(kPresets.size() == kNumPresets, "fuzz/decode.cpp: add the new preset to kPresets");
constexpr std::array<unsigned, 3> kPageShifts{12, 14, 16};

enum Flag : uint8_t {
	f_tx_max_frag = 1,
	f_rx_buf_size = 2,
	f_pp_order = 4,
	f_no_zcrx_device = 8,
	f_dmabuf_size = 16,
	f_size_goal = 32,
	f_mss = 64,
	f_head_truesize = 128,
};
enum Flag2 : uint8_t { f2_max_page_order = 1 };
enum SendFlag : uint8_t { sf_length = 1 };

// Op kind byte: half of the values are sends, the op that does the work.
constexpr unsigned kOpKindMask = 7;
OpKind op_kind(uint8_t b) {
	switch (b & kOpKindMask) {
	case 4:
		return OpKind::ack;
	case 5:
		return OpKind::split;
	case 6:
		return OpKind::shift;
	case 7:
		return OpKind::free;
	default:
		return OpKind::send;
	}
}
uint8_t op_kind_byte(OpKind k) {
	switch (k) {
	case OpKind::send:
		return 0;
	case OpKind::ack:
		return 4;
	case OpKind::split:
		return 5;
	case OpKind::shift:
		return 6;
	case OpKind::free:
		return 7;
	}
	return 0;
}

// Send element counts 1..32 take one byte; larger ones a number after it.
constexpr uint8_t kCountLong = 0xe0;
constexpr size_t kCountShort = 32;

Dir decode_dir(uint8_t b, Target t) {
	switch (t) {
	case Target::bind:
		return b & 1 ? Dir::rx : Dir::tx;
	case Target::config:
		return b & 1 ? Dir::zcrx : Dir::rx;
	default:
		return Dir::tx;
	}
}
uint8_t dir_byte(Dir d, Target t) { return t == Target::config ? d == Dir::zcrx : d == Dir::rx; }

uint64_t saturating_sum(const std::vector<DmaSeg> &segs) {
	uint64_t sum = 0;
	for (const auto &s : segs)
		sum = s.len > UINT64_MAX - sum ? UINT64_MAX : sum + s.len;
	return sum;
}

// Policies: bit 7 of the first byte says "overridden"; its low bits carry the
// three-valued policies, the next byte one bit per two-valued one.  The era
// switches (bind=genpool-unchecked, paths=rx) ride on the first byte above
// 9, so inputs from before them decode as they did.
void decode_policies(ByteReader &r, Config &cfg) {
	const uint8_t p = r.byte();
	if (!(p & 0x80))
		return;
	const unsigned tri = p & 0x7f;
	const uint8_t bits = r.byte();
	auto &pol = cfg.policy;
	pol.tx_niov = static_cast<TxNiov>(tri % 3);
	pol.truesize = static_cast<Truesize>(tri / 3 % 3);
	pol.rx_attr = static_cast<RxAttr>(bits & 1);
	pol.bind = static_cast<BindStyle>(bits >> 1 & 1);
	pol.lookup = static_cast<Lookup>(bits >> 2 & 1);
	pol.max_frag = static_cast<MaxFrag>(bits >> 3 & 1);
	pol.bnxt_frags = static_cast<BnxtFrags>(bits >> 4 & 1);
	const unsigned era = tri / 9;
	if (era & 1)
		pol.bind = BindStyle::genpool_unchecked;
	pol.paths = era & 2 ? Paths::rx : Paths::all;
}

void encode_policies(ByteWriter &w, const Config &cfg) {
	const auto &pol = cfg.policy;
	if (pol == preset_policies(cfg.preset)) {
		w.byte(0);
		return;
	}
	const unsigned era = (pol.bind == BindStyle::genpool_unchecked ? 1u : 0u) |
			     (pol.paths == Paths::rx ? 2u : 0u);
	w.byte(static_cast<uint8_t>(0x80 | (static_cast<unsigned>(pol.tx_niov) +
					    3 * static_cast<unsigned>(pol.truesize) + 9 * era)));
	w.byte(static_cast<uint8_t>(static_cast<unsigned>(pol.rx_attr) |
				    static_cast<unsigned>(pol.bind == BindStyle::freelist) << 1 |
				    static_cast<unsigned>(pol.lookup) << 2 |
				    static_cast<unsigned>(pol.max_frag) << 3 |
				    static_cast<unsigned>(pol.bnxt_frags) << 4));
}

// The number contexts, one function each so decoder and encoder agree.
NumCtx seg_addr_ctx(const std::vector<DmaSeg> &prev) {
	if (prev.empty())
		return {{0x40000000, 0}};
	return {{prev.back().addr + prev.back().len, prev.back().addr}};
}
NumCtx seg_len_ctx(const std::vector<DmaSeg> &prev) { return {{prev.empty() ? 0 : prev.back().len, 0}}; }
NumCtx elem_base_ctx(const std::vector<IovElem> &prev, uint64_t dmabuf) {
	return {{prev.empty() ? 0 : prev.back().base + prev.back().len, dmabuf}};
}
NumCtx elem_len_ctx(const std::vector<IovElem> &prev, uint64_t base, uint64_t dmabuf) {
	return {{dmabuf - base, prev.empty() ? 0 : prev.back().len}};
}
uint64_t iov_total(const std::vector<IovElem> &iov) {
	uint64_t t = 0;
	for (const auto &e : iov)
		t += e.len;
	return t;
}

struct Defaults {
	Config cfg;
	Scenario sc;
};

void decode_config(ByteReader &r, Scenario &sc, Target t) {
	Config &cfg = sc.cfg;
	cfg.preset = kPresets[r.byte() % kPresets.size()];
	cfg.policy = preset_policies(cfg.preset);
	decode_policies(r, cfg);
	cfg.page_shift = kPageShifts[r.byte() % kPageShifts.size()];
	cfg.max_skb_frags = kMinMaxSkbFrags + r.byte() % (kMaxMaxSkbFrags - kMinMaxSkbFrags + 1);
	cfg.device = static_cast<Device>(r.byte() % 5);
	sc.dir = decode_dir(r.byte(), t);
	const uint8_t flags = r.byte();
	const uint8_t flags2 = r.byte();
	if (flags & f_tx_max_frag)
		cfg.tx_max_frag_size = static_cast<uint32_t>(fit(decode_number(r), 1, UINT32_MAX));
	if (flags & f_size_goal)
		cfg.size_goal = static_cast<uint32_t>(fit(decode_number(r), 1, kMaxSizeGoal));
	if (flags & f_mss)
		cfg.mss = static_cast<uint32_t>(fit(decode_number(r), 8, 65535));
	if (flags & f_head_truesize)
		cfg.skb_head_truesize = static_cast<uint32_t>(fit(decode_number(r), 0, kMaxHeadTruesize));
	if (flags2 & f2_max_page_order)
		cfg.max_page_order = static_cast<unsigned>(fit(r.byte(), 0, 20));
	if (flags & f_rx_buf_size)
		sc.rx_buf_size = static_cast<uint32_t>(fit(decode_number(r), 0, UINT32_MAX));
	if (flags & f_pp_order)
		sc.pp_order = r.byte() % 64;
	sc.zcrx_device = !(flags & f_no_zcrx_device);

	const size_t nsegs = r.byte() % (kMaxSegs + 1);
	reuse_kept(sc.segs, nsegs);
	for (size_t i = 0; i < nsegs; ++i) {
		DmaSeg s;
		s.addr = decode_number(r, seg_addr_ctx(sc.segs));
		s.len = decode_number(r, seg_len_ctx(sc.segs));
		sc.segs.push_back(s);
	}
	const uint64_t sum = saturating_sum(sc.segs);
	sc.dmabuf_size_set = flags & f_dmabuf_size;
	sc.dmabuf_size = sc.dmabuf_size_set ? decode_number(r, {{sum, 0}}) : sum;
}

// Into @op, whose iov is empty (its memory may be a recycled vector's).
void decode_send(ByteReader &r, const Scenario &sc, Target t, Op &op) {
	op.kind = OpKind::send;
	size_t n = 1;
	uint8_t sflags = 0;
	if (t == Target::send) {
		const uint8_t c = r.byte();
		n = c < kCountLong ? 1 + c % kCountShort
				   : static_cast<size_t>(fit(decode_number(r), 1, kMaxSendElems));
		sflags = r.byte();
	}
	// Every one of the n elements is decoded (zeros past the input's end):
	// growing the vector element by element was a third of a send input's
	// allocations.
	reuse_kept(op.iov, n);
	for (size_t i = 0; i < n; ++i) {
		IovElem e;
		e.base = decode_number(r, elem_base_ctx(op.iov, sc.dmabuf_size));
		e.len = decode_number(r, elem_len_ctx(op.iov, e.base, sc.dmabuf_size));
		if (t == Target::bind)
			e.len = fit(e.len, 0, kMaxProbeLen);
		op.iov.push_back(e);
	}
	if (sflags & sf_length)
		op.length = decode_number(r, {{iov_total(op.iov), 0}});
}

}  // namespace

std::string_view name(Target t) {
	switch (t) {
	case Target::bind:
		return "bind";
	case Target::send:
		return "send";
	case Target::config:
		return "config";
	case Target::scenario:
		return "scenario";
	}
	return "?";
}

std::optional<Target> parse_target(std::string_view s) {
	for (Target t : {Target::bind, Target::send, Target::config, Target::scenario})
		if (name(t) == s)
			return t;
	return std::nullopt;
}

namespace {

// A cleared iov vector of an earlier input's, if any is left: out of line
// and without coverage (coverage-ignore.txt), since whether one is left
// follows the input before.
[[gnu::noinline]] void lend_spare_iov(std::vector<IovElem> &iov, std::vector<std::vector<IovElem>> &spare) {
	if (!spare.empty()) {
		iov = std::move(spare.back());
		spare.pop_back();
	}
}

// Decodes into @sc, which holds the defaults except for its empty segment
// and op vectors; @spare hands out cleared iov vectors to reuse.  Never
// inlined into ScenarioDecoder::decode, whose recycling has no coverage.
[[gnu::noinline]] void decode_into(ByteReader &r, Scenario &sc, Target t, std::vector<std::vector<IovElem>> &spare) {
	sc.name = "fuzz-" + std::string(name(t));
	decode_config(r, sc, t);
	if (t == Target::config)
		return;
	const size_t max_ops = t == Target::bind ? kMaxProbes : kMaxOps;
	uint64_t sent = 0;  // what acks and splits are written relative to
	while (!r.empty() && sc.ops.size() < max_ops) {
		const OpKind kind = t == Target::bind ? OpKind::send : op_kind(r.byte());
		Op &op = sc.ops.emplace_back();
		if (kind == OpKind::send) {
			lend_spare_iov(op.iov, spare);
			decode_send(r, sc, t, op);
			sent += iov_total(op.iov);
		} else {
			op.kind = kind;
			if (kind != OpKind::free)
				op.n = decode_number(r, {{sent, sc.cfg.size_goal}});
		}
		op.line = static_cast<uint32_t>(sc.ops.size());
	}
}

}  // namespace

Scenario decode_scenario(const uint8_t *data, size_t size, Target t) {
	ByteReader r(data, size);
	Scenario sc;
	std::vector<std::vector<IovElem>> none;
	decode_into(r, sc, t, none);
	return sc;
}

Scenario &ScenarioDecoder::decode(const uint8_t *data, size_t size, Target t) {
	std::vector<DmaSeg> segs = std::move(sc_.segs);
	std::vector<Op> ops = std::move(sc_.ops);
	segs.clear();
	for (Op &op : ops)
		if (op.iov.capacity()) {
			op.iov.clear();
			spare_iovs_.push_back(std::move(op.iov));
		}
	// Emptied, with room for every op an input can hold: emplace_back never
	// grows it, so no edge of decode_into depends on the last input's count.
	reuse_kept(ops, std::max(kMaxOps, kMaxProbes));
	sc_ = Scenario{};
	sc_.segs = std::move(segs);
	sc_.ops = std::move(ops);
	ByteReader r(data, size);
	decode_into(r, sc_, t, spare_iovs_);
	return sc_;
}

namespace {

std::string domain_error(const Scenario &sc, Target t) {
	const Config &c = sc.cfg;
	if (t == Target::scenario)
		return "the scenario target takes scenario text, not bytes";
	if (c.page_shift != 12 && c.page_shift != 14 && c.page_shift != 16)
		return "page_shift must be 12, 14 or 16";
	if (c.max_skb_frags < kMinMaxSkbFrags || c.max_skb_frags > kMaxMaxSkbFrags)
		return "max_skb_frags out of range";
	// A rule change reaches the byte targets by pinning ($NIOV_POLICY).
	if (c.policy.tx_niov_max_shift != Policies{}.tx_niov_max_shift)
		return "policy tx_niov_max is not in the byte layout (fuzz it with $NIOV_POLICY)";
	if ((c.tx_max_frag_size && *c.tx_max_frag_size == 0) || c.size_goal == 0 ||
	    c.size_goal > kMaxSizeGoal || c.mss < 8 || c.mss > 65535 || c.skb_head_truesize > kMaxHeadTruesize ||
	    c.max_page_order > 20 || (sc.pp_order && *sc.pp_order > 63))
		return "a configuration value is out of the parser's range";
	if (sc.segs.size() > kMaxSegs)
		return "more than " + std::to_string(kMaxSegs) + " segments";
	if (!sc.dmabuf_size_set && sc.dmabuf_size != saturating_sum(sc.segs))
		return "dmabuf size unset but not the sum of the segments";
	if (t == Target::send && sc.dir != Dir::tx)
		return "the send target is TX only (dir tx)";
	if (t == Target::bind && sc.dir == Dir::zcrx)
		return "the bind target covers dir tx and rx (zcrx is the config target's)";
	if (t == Target::config && sc.dir == Dir::tx)
		return "the config target covers dir rx and zcrx";
	if (t == Target::config && !sc.ops.empty())
		return "the config target has no operations";
	if (sc.ops.size() > (t == Target::bind ? kMaxProbes : kMaxOps))
		return "too many operations for the " + std::string(name(t)) + " target";
	for (const auto &op : sc.ops) {
		if (t == Target::bind && (op.kind != OpKind::send || op.iov.size() != 1 || op.length ||
					  op.iov[0].len > kMaxProbeLen))
			return "the bind target's operations are one-element sends of at most " +
			       std::to_string(kMaxProbeLen) + " bytes without length=";
		if (op.kind == OpKind::send && (op.iov.empty() || op.iov.size() > kMaxSendElems))
			return "a send needs 1.." + std::to_string(kMaxSendElems) + " elements";
	}
	return {};
}

void encode_config(ByteWriter &w, const Scenario &sc, Target t) {
	const Config &c = sc.cfg;
	const Defaults d;
	for (size_t i = 0; i < kPresets.size(); ++i)
		if (kPresets[i] == c.preset)
			w.byte(static_cast<uint8_t>(i));
	encode_policies(w, c);
	for (size_t i = 0; i < kPageShifts.size(); ++i)
		if (kPageShifts[i] == c.page_shift)
			w.byte(static_cast<uint8_t>(i));
	w.byte(static_cast<uint8_t>(c.max_skb_frags - kMinMaxSkbFrags));
	w.byte(static_cast<uint8_t>(c.device));
	w.byte(dir_byte(sc.dir, t));
	uint8_t flags = 0;
	if (c.tx_max_frag_size)
		flags |= f_tx_max_frag;
	if (sc.rx_buf_size)
		flags |= f_rx_buf_size;
	if (sc.pp_order)
		flags |= f_pp_order;
	if (!sc.zcrx_device)
		flags |= f_no_zcrx_device;
	if (sc.dmabuf_size_set)
		flags |= f_dmabuf_size;
	if (c.size_goal != d.cfg.size_goal)
		flags |= f_size_goal;
	if (c.mss != d.cfg.mss)
		flags |= f_mss;
	if (c.skb_head_truesize != d.cfg.skb_head_truesize)
		flags |= f_head_truesize;
	w.byte(flags);
	w.byte(c.max_page_order != d.cfg.max_page_order ? f2_max_page_order : 0);
	if (c.tx_max_frag_size)
		encode_number(w, *c.tx_max_frag_size);
	if (flags & f_size_goal)
		encode_number(w, c.size_goal);
	if (flags & f_mss)
		encode_number(w, c.mss);
	if (flags & f_head_truesize)
		encode_number(w, c.skb_head_truesize);
	if (c.max_page_order != d.cfg.max_page_order)
		w.byte(static_cast<uint8_t>(c.max_page_order));
	if (sc.rx_buf_size)
		encode_number(w, *sc.rx_buf_size);
	if (sc.pp_order)
		w.byte(static_cast<uint8_t>(*sc.pp_order));

	w.byte(static_cast<uint8_t>(sc.segs.size()));
	std::vector<DmaSeg> prev;
	for (const auto &s : sc.segs) {
		encode_number(w, s.addr, seg_addr_ctx(prev));
		encode_number(w, s.len, seg_len_ctx(prev));
		prev.push_back(s);
	}
	if (sc.dmabuf_size_set)
		encode_number(w, sc.dmabuf_size, {{saturating_sum(sc.segs), 0}});
}

void encode_send(ByteWriter &w, const Op &op, const Scenario &sc, Target t) {
	if (t == Target::send) {
		const size_t n = op.iov.size();
		if (n <= kCountShort) {
			w.byte(static_cast<uint8_t>(n - 1));
		} else {
			w.byte(kCountLong);
			encode_number(w, n);
		}
		w.byte(op.length ? sf_length : 0);
	}
	std::vector<IovElem> prev;
	for (const auto &e : op.iov) {
		encode_number(w, e.base, elem_base_ctx(prev, sc.dmabuf_size));
		encode_number(w, e.len, elem_len_ctx(prev, e.base, sc.dmabuf_size));
		prev.push_back(e);
	}
	if (op.length)
		encode_number(w, *op.length, {{iov_total(op.iov), 0}});
}

}  // namespace

Encoded encode_scenario(const Scenario &sc, Target t) {
	Encoded out;
	out.error = domain_error(sc, t);
	if (!out.error.empty())
		return out;
	ByteWriter w;
	encode_config(w, sc, t);
	uint64_t sent = 0;
	for (const auto &op : sc.ops) {
		if (t != Target::bind)
			w.byte(op_kind_byte(op.kind));
		if (op.kind == OpKind::send) {
			encode_send(w, op, sc, t);
			sent += iov_total(op.iov);
		} else if (op.kind != OpKind::free) {
			encode_number(w, op.n, {{sent, sc.cfg.size_goal}});
		}
	}
	out.bytes = w.take();
	// The layout is written twice (decoder, encoder): prove they agree.
	const Scenario back = decode_scenario(out.bytes.data(), out.bytes.size(), t);
	if (input_text(back) != input_text(sc)) {
		out.bytes.clear();
		out.error = "internal error: the encoding does not decode back to the scenario";
	}
	return out;
}

std::string input_text(const Scenario &sc) {
	Scenario s = sc;
	s.expect_violations.clear();
	s.expect_bind_err.reset();
	s.name.clear();
	return serialize_scenario(s);
}

}  // namespace niov::fuzz
