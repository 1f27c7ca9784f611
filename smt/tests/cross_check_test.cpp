// The symbolic and the concrete instantiation of every rule function agree:
// random concrete inputs (edge values mixed in) go through the Concrete
// backend and, as a Z3 model, through the terms the Sym backend built from
// the same template.  This is what lets the proofs speak about the code the
// tests and fuzzers run.  One RapidCheck property per rule function.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "lemma.hpp"
#include "lemmas/common.hpp"
#include "rules.hpp"
#include "sym_word.hpp"

namespace niov::smt {
namespace {

// The outputs a probe exposes, in order.
template <class W>
struct Out {
	std::vector<typename W::u64> words64;
	std::vector<typename W::u32> words32;
	std::vector<typename W::boolean> flags;
	void add64(const typename W::u64 &v) { words64.push_back(v); }
	void add32(const typename W::u32 &v) { words32.push_back(v); }
	void flag(const typename W::boolean &v) { flags.push_back(v); }
};

// The plain C++ parameters of a call: policies, page shift, device, ...
struct Cfg {
	Policies pol;
	unsigned page_shift = 12;
	Device dev = Device::none;
	Dir dir = Dir::tx;
	unsigned nsegs = 0;
	bool flag = false;
	int code = 22;
};

std::vector<Policies> policy_variants() {
	std::vector<Policies> v;
	for (Preset p : {Preset::baseline, Preset::net_next, Preset::tx_autosize})
		v.push_back(preset_policies(p));
	Policies p = preset_policies(Preset::tx_autosize);
	p.tx_niov = TxNiov::autosize_noaddr;
	p.truesize = Truesize::zero;
	p.bind = BindStyle::genpool;
	v.push_back(p);
	p = preset_policies(Preset::net_next);
	p.rx_attr = RxAttr::absent;
	p.lookup = Lookup::niov;
	p.max_frag = MaxFrag::device;
	v.push_back(p);
	return v;
}

// Every combination of the parameters a probe varies.
std::vector<Cfg> configs(bool pols, bool pages, bool devs, bool dirs, unsigned max_segs, bool flag) {
	std::vector<Cfg> out{Cfg{}};
	auto expand = [&out](auto apply, size_t n) {
		std::vector<Cfg> next;
		for (const Cfg &c : out)
			for (size_t i = 0; i < n; ++i) {
				Cfg d = c;
				apply(d, i);
				next.push_back(d);
			}
		out = next;
	};
	if (pols) {
		const auto v = policy_variants();
		expand([&v](Cfg &c, size_t i) { c.pol = v[i]; }, v.size());
	}
	if (pages)
		expand([](Cfg &c, size_t i) { c.page_shift = lemmas::kPageShifts[i]; }, 3);
	if (devs)
		expand([](Cfg &c, size_t i) { c.dev = lemmas::kDevices[i]; }, 5);
	if (dirs)
		expand([](Cfg &c, size_t i) { c.dir = i ? Dir::rx : Dir::tx; }, 2);
	if (max_segs)
		expand([](Cfg &c, size_t i) { c.nsegs = static_cast<unsigned>(i); }, max_segs + 1);
	if (flag)
		expand([](Cfg &c, size_t i) { c.flag = i != 0; }, 2);
	return out;
}

using Body64 = void (*)(const Cfg &, In<Sym> &, Out<Sym> &);
using BodyC = void (*)(const Cfg &, In<Concrete> &, Out<Concrete> &);

// The Sym terms of one probe at one configuration, built once.
struct Built {
	std::unique_ptr<z3::context> ctx;
	std::vector<VarInfo> vars;
	std::vector<z3::expr> consts;
	Out<Sym> out;
};

uint64_t edge_value(uint64_t pick) {
	static const uint64_t kEdges[] = {0,	      1,	  2,	      3,	    4095,	  4096,
					  4097,	      16384,	  32767,      32768,	    65535,	  65536,
					  (1u << 21) - 1, 1u << 21, (1u << 21) + 1, 0x7fffffff,  0x80000000, 0xffffffff,
					  1ull << 32, (1ull << 32) + 1, 1ull << 63, UINT64_MAX - 1, UINT64_MAX, 21,
					  12, 14, 16, 63, 64, 65};
	return kEdges[pick % std::size(kEdges)];
}

// Edge values, small values, random bit lengths and plain random words.
rc::Gen<uint64_t> word_gen() {
	return rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<uint64_t>(), edge_value),
			      rc::gen::inRange<uint64_t>(0, 1 << 16),
			      rc::gen::map(rc::gen::pair(rc::gen::arbitrary<uint64_t>(), rc::gen::inRange(0, 64)),
					   [](const std::pair<uint64_t, int> &p) { return p.first >> p.second; }),
			      rc::gen::arbitrary<uint64_t>());
}

uint64_t eval_num(z3::model &m, const z3::expr &e) {
	const z3::expr v = m.eval(e, true);
	if (v.is_bool())
		return v.is_true();
	uint64_t out = 0;
	if (!v.is_numeral_u64(out))
		throw std::runtime_error("not a numeral: " + v.to_string());
	return out;
}

void check_probe(const std::string &name, const std::vector<Cfg> &cfgs, Body64 sym, BodyC conc) {
	std::map<size_t, Built> cache;
	const bool ok = rc::check(name, [&] {
		const size_t ci = *rc::gen::inRange<size_t>(0, cfgs.size());
		const Cfg &cfg = cfgs[ci];
		// The concrete run draws the inputs.
		std::vector<uint64_t> values;
		In<Concrete> cin([&values](size_t, std::string_view, VarKind k, const Dom &) {
			uint64_t v = *word_gen();
			if (k == VarKind::u32)
				v &= UINT32_MAX;
			if (k == VarKind::flag)
				v &= 1;
			values.push_back(v);
			return v;
		});
		Out<Concrete> cout;
		conc(cfg, cin, cout);

		auto it = cache.find(ci);
		if (it == cache.end()) {
			Built b;
			b.ctx = std::make_unique<z3::context>();
			SymScope scope(*b.ctx);
			In<Sym> sin(*b.ctx);
			sym(cfg, sin, b.out);
			b.vars = sin.vars();
			b.consts = sin.consts();
			it = cache.emplace(ci, std::move(b)).first;
		}
		Built &b = it->second;
		RC_ASSERT(b.vars.size() == values.size());
		z3::model m(*b.ctx);
		for (size_t i = 0; i < values.size(); ++i) {
			z3::func_decl d = b.consts[i].decl();
			z3::expr v = b.vars[i].kind == VarKind::flag ? b.ctx->bool_val(values[i] != 0)
				     : b.vars[i].kind == VarKind::u32 ? b.ctx->bv_val(values[i], 32)
									: b.ctx->bv_val(values[i], 64);
			m.add_const_interp(d, v);
		}
		RC_ASSERT(b.out.words64.size() == cout.words64.size());
		RC_ASSERT(b.out.words32.size() == cout.words32.size());
		RC_ASSERT(b.out.flags.size() == cout.flags.size());
		for (size_t i = 0; i < cout.words64.size(); ++i)
			RC_ASSERT(eval_num(m, b.out.words64[i]) == cout.words64[i]);
		for (size_t i = 0; i < cout.words32.size(); ++i)
			RC_ASSERT(eval_num(m, b.out.words32[i]) == uint64_t{cout.words32[i]});
		for (size_t i = 0; i < cout.flags.size(); ++i)
			RC_ASSERT(eval_num(m, b.out.flags[i]) == uint64_t{cout.flags[i]});
	});
	EXPECT_TRUE(ok) << name;
}

template <class W>
std::vector<rules::Seg<W>> segs(const Cfg &c, In<W> &in) {
	return lemmas::seg_table<W>(in, c.nsegs, {}, {});
}

// --- the probes: one per rule function (word primitives first) -------------

template <class W>
void p_word(const Cfg &, In<W> &in, Out<W> &o) {
	auto a = in.u64("a"), b = in.u64("b");
	auto x = in.u32("x"), y = in.u32("y");
	o.add64(W::shl(a, b));
	o.add64(W::lshr(a, b));
	o.add32(W::shl(x, y));
	o.add32(W::lshr(x, y));
	o.flag(W::ult(a, b));
	o.flag(W::uge(a, b));
	o.flag(W::slt32(x, y));
	o.flag(W::sge32(x, y));
	o.add64(W::zext(x));
	o.add32(W::trunc(a));
	o.add64(W::ctz64(a));
	o.flag(W::is_pow2(a));
	o.flag(W::is_pow2(x));
	o.add64(W::select(W::ult(a, b), a, b));
	o.add64(a + b - (a & b) - (a | b) + (a ^ b) + ~a);
}

template <class W>
void p_err_if(const Cfg &c, In<W> &in, Out<W> &o) {
	o.add32(rules::err_if<W>(in.u32("err"), in.flag("cond"), c.code));
}

template <class W>
void p_arith(const Cfg &, In<W> &in, Out<W> &o) {
	auto a = in.u64("a"), b = in.u64("b");
	o.flag(rules::aligned<W>(a, b));
	o.add64(rules::umin<W>(a, b));
	o.add64(rules::umax<W>(a, b));
	o.add64(rules::lowbit<W>(a));
	o.add64(rules::log2_pow2<W>(a));
}

template <class W>
void p_sizing(const Cfg &c, In<W> &in, Out<W> &o) {
	auto size = in.u64("size");
	auto n = in.u64("n");
	const auto t = segs<W>(c, in);
	const auto sp = lemmas::span_of<W>(t);
	o.flag(rules::layout_aligned<W>(c.pol.tx_niov, size, sp, n));
	o.add64(rules::tx_size_loop<W>(c.pol.tx_niov, c.page_shift, size, sp));
	o.add64(rules::tx_size_decl<W>(c.pol.tx_niov, c.page_shift, size, sp));
	o.add64(rules::tx_niov_shift<W>(c.pol, c.page_shift, size, sp));
}

template <class W>
void p_shifts(const Cfg &c, In<W> &in, Out<W> &o) {
	auto present = in.flag("present");
	auto value = in.u32("value");
	o.add64(rules::rx_niov_shift<W>(c.page_shift, present, value));
	o.add64(rules::zcrx_niov_shift<W>(c.page_shift, value));
	o.add64(rules::lookup_shift<W>(c.pol, c.page_shift, in.u64("niov_shift")));
	o.add32(rules::rx_attr_errno<W>(c.pol, c.dir, c.page_shift, present, value));
}

template <class W>
void p_bind(const Cfg &c, In<W> &in, Out<W> &o) {
	auto size = in.u64("size");
	auto shift = in.u64("shift");
	const auto t = segs<W>(c, in);
	o.add32(rules::bind_errno<W>(c.pol, c.dir, size, lemmas::span_of<W>(t), shift));
}

template <class W>
void p_queue(const Cfg &c, In<W> &in, Out<W> &o) {
	auto mpo = in.u64("mpo");
	auto shift = in.u64("shift");
	auto order = in.u64("order");
	o.add32(rules::pp_order_errno<W>(c.page_shift, shift, order));
	o.add32(rules::rx_queue_errno<W>(c.dev, c.page_shift, mpo, shift, order));
	o.add64(rules::rx_queue_order<W>(c.dev, c.page_shift, shift));
}

template <class W>
void p_zcrx(const Cfg &c, In<W> &in, Out<W> &o) {
	o.add32(rules::zcrx_errno<W>(c.page_shift, in.u32("len"), in.u64("area"), c.flag));
}

template <class W>
void p_lookup(const Cfg &, In<W> &in, Out<W> &o) {
	const auto l = rules::get_niov_at<W>(in.u64("size"), in.u64("gran"), in.u64("virt"));
	o.flag(l.ok);
	o.add64(l.idx);
	o.add64(l.off);
	o.add64(l.size);
}

template <class W>
void p_maps(const Cfg &c, In<W> &in, Out<W> &o) {
	auto virt = in.u64("virt");
	auto shift = in.u64("shift");
	auto num = in.u64("num");
	const auto t = segs<W>(c, in);
	const auto b = rules::byte_map<W>(lemmas::span_of<W>(t), virt);
	const auto n = rules::niov_dma<W>(lemmas::span_of<W>(t), shift, num, in.u64("idx"));
	o.flag(b.ok);
	o.add64(b.dma);
	o.flag(n.ok);
	o.add64(n.dma);
}

template <class W>
void p_fill(const Cfg &c, In<W> &in, Out<W> &o) {
	auto niov_rem = in.u64("niov_rem"), length = in.u64("length"), iov_rem = in.u64("iov_rem"),
	     dev_max = in.u64("dev_max");
	o.add64(rules::frag_len<W>(c.pol, niov_rem, length, iov_rem, dev_max));
	o.add32(rules::frag_charge<W>(c.pol, c.page_shift, in.u32("len")));
	const auto f = rules::fill_frag<W>(c.pol, c.page_shift, in.u64("size"), in.u64("gran"), in.u64("virt"),
					   length, iov_rem, dev_max);
	o.flag(f.ok);
	o.add64(f.idx);
	o.add32(f.off);
	o.add32(f.len);
	o.add32(f.charge);
	o.add64(f.size);
}

template <class W>
void p_tcp(const Cfg &, In<W> &in, Out<W> &o) {
	rules::SkbAcct<W> a{in.u32("a.len"), in.u32("a.truesize")};
	rules::SkbAcct<W> b{in.u32("b.len"), in.u32("b.truesize")};
	auto wmem = in.u32("wmem");
	auto n = in.u32("n");
	auto head = in.u32("head");
	o.flag(rules::truesize_covers<W>(a, head));
	auto a1 = a;
	auto w1 = wmem;
	rules::trim_head<W>(a1, w1, n);
	auto a2 = a;
	auto w2 = wmem;
	const auto nb = rules::fragment<W>(a2, w2, n, head);
	auto a3 = a;
	auto b3 = b;
	rules::shift<W>(a3, b3, n);
	auto w4 = wmem;
	rules::free_skb<W>(b, w4);
	for (const auto &v : {a1.len, a1.truesize, w1, a2.len, a2.truesize, w2, nb.len, nb.truesize, a3.len,
			      a3.truesize, b3.len, b3.truesize, w4})
		o.add32(v);
}

template <class W>
void p_desc(const Cfg &c, In<W> &in, Out<W> &o) {
	auto len = in.u32("len");
	o.add32(rules::desc_field<W>(c.dev, len));
	o.flag(rules::desc_exact<W>(c.dev, len));
}

#define PROBE(fn) &fn<Sym>, &fn<Concrete>

TEST(CrossCheck, WordPrimitives) { check_probe("word primitives", {Cfg{}}, PROBE(p_word)); }

TEST(CrossCheck, ErrIf) {
	std::vector<Cfg> v;
	for (int code : {kEINVAL, kE2BIG, kEFAULT}) {
		Cfg c;
		c.code = code;
		v.push_back(c);
	}
	check_probe("err_if", v, PROBE(p_err_if));
}

TEST(CrossCheck, AlignedMinMaxLowbitLog2) { check_probe("aligned umin umax lowbit log2_pow2", {Cfg{}}, PROBE(p_arith)); }

TEST(CrossCheck, SizingLoopDeclLayoutShift) {
	check_probe("layout_aligned tx_size_loop tx_size_decl tx_niov_shift", configs(true, true, false, false, 3, false),
		    PROBE(p_sizing));
}

TEST(CrossCheck, ShiftsAndRxAttr) {
	check_probe("rx_niov_shift zcrx_niov_shift lookup_shift rx_attr_errno",
		    configs(true, true, false, true, 0, false), PROBE(p_shifts));
}

TEST(CrossCheck, BindErrno) {
	check_probe("bind_errno", configs(true, false, false, true, 3, false), PROBE(p_bind));
}

TEST(CrossCheck, RxQueue) {
	check_probe("pp_order_errno rx_queue_errno rx_queue_order", configs(false, true, true, false, 0, false),
		    PROBE(p_queue));
}

TEST(CrossCheck, Zcrx) { check_probe("zcrx_errno", configs(false, true, false, false, 0, true), PROBE(p_zcrx)); }

TEST(CrossCheck, GetNiovAt) { check_probe("get_niov_at", {Cfg{}}, PROBE(p_lookup)); }

TEST(CrossCheck, ByteMapNiovDma) {
	check_probe("byte_map niov_dma", configs(false, false, false, false, 3, false), PROBE(p_maps));
}

TEST(CrossCheck, FragLenChargeFill) {
	check_probe("frag_len frag_charge fill_frag", configs(true, true, false, false, 0, false), PROBE(p_fill));
}

TEST(CrossCheck, TcpAccounting) {
	check_probe("truesize_covers trim_head fragment shift free_skb", {Cfg{}}, PROBE(p_tcp));
}

TEST(CrossCheck, DeviceDescriptors) {
	check_probe("desc_field desc_exact", configs(false, false, true, false, 0, false), PROBE(p_desc));
}

}  // namespace
}  // namespace niov::smt
