// The proofs can fail: for each lemma family a mutated rule (a broken
// policy) or a deliberately wrong variant of the lemma comes out sat, and
// the counterexample is confirmed by the concrete rules.  Also: the
// catalogue's structure (both instantiations ask for the same inputs) and
// the result sharing (points with the same label give the same query).
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "catalogue.hpp"
#include "lemmas/common.hpp"
#include "matrix.hpp"
#include "solve.hpp"

namespace niov::smt {
namespace {

using namespace lemmas;

Policies with(const std::string &key, const std::string &value, Preset base = Preset::tx_autosize) {
	Policies p = preset_policies(base);
	EXPECT_TRUE(apply_policy(p, key, value)) << key << "=" << value;
	return p;
}

// Solve @lemma at every point of its domain under @pol that @keep accepts;
// true when one of them is a confirmed counterexample.
template <class Keep>
bool some_counterexample(const Lemma &lemma, const Policies &pol, Keep keep) {
	SolveOptions o;
	// Wall-clock budget: these queries take 1-4 s of CPU, but a shared
	// 2-core machine at load 10+ stretches that several times over.
	o.timeout_ms = 90000;
	for (const Point &p : lemma.points(pol)) {
		if (!keep(p))
			continue;
		const Outcome out = solve(lemma, p, o);
		EXPECT_NE(out.verdict, Verdict::unknown) << lemma.id << " " << point_label(p, lemma.reads) << ": " << out.reason;
		if (out.verdict == Verdict::counterexample) {
			EXPECT_TRUE(out.confirmed) << lemma.id << ": Z3's model is not a concrete counterexample: "
						   << out.model.to_string();
			return out.confirmed;
		}
	}
	return false;
}

const Lemma &lemma(const char *id) {
	const Lemma *l = find_lemma(id);
	EXPECT_NE(l, nullptr) << id;
	return *l;
}

auto page12 = [](const Point &p) { return p.page_shift == 12; };

// A wrong variant: a lemma body written here, with the catalogue's shape.
Lemma variant(const char *id, Claim<Sym> (*sym)(const Point &, In<Sym> &),
	      Claim<Concrete> (*conc)(const Point &, In<Concrete> &)) {
	Lemma l;
	l.id = id;
	l.family = "test";
	l.inv = Inv::sizing_maximal;
	l.sym = sym;
	l.conc = conc;
	return l;
}

Point at(unsigned ps, Device dev = Device::none, unsigned shift = 0) {
	Point p;
	p.page_shift = ps;
	p.dev = dev;
	p.niov_shift = shift;
	return p;
}

// --- sizing -----------------------------------------------------------------

TEST(Negative, SizingWithoutAddressCheckOnGenpool) {
	EXPECT_TRUE(some_counterexample(lemma("sizing.aligns_segments"), with("tx_niov", "auto-noaddr", Preset::baseline),
					page12));
}

// "The declarative form needs no PAGE_SIZE floor": wrong for sizes with low bits.
template <class W>
Claim<W> decl_without_floor(const Point &p, In<W> &in) {
	Claim<W> c;
	auto size = in.u64("size");
	const std::vector<rules::Seg<W>> none;
	c.prove(rules::tx_size_loop<W>(TxNiov::autosize, p.page_shift, size, span_of<W>(none)) ==
		rules::lowbit<W>(size | W::k64(kTxNiovMaxSize)));
	return c;
}

TEST(Negative, SizingWrongDeclarativeForm) {
	const Lemma l = variant("test.decl_without_floor", decl_without_floor<Sym>, decl_without_floor<Concrete>);
	EXPECT_EQ(solve(l, at(12), {}).verdict, Verdict::counterexample);
}

// --- rx -----------------------------------------------------------------------

// A claim the kernel does not make: that an opened queue's order stays
// within MAX_PAGE_ORDER.  bnxt's 32 KiB buffers are order 3 on 4 KiB pages,
// and memory-provider pools skip page_pool_init's MAX_PAGE_ORDER check, so
// below 3 the queue opens above it (a false alarm the suite once raised).
template <class W>
Claim<W> pp_order_low_mpo(const Point &p, In<W> &in) {
	Claim<W> c;
	auto value = in.u32("rx_buf_size");
	auto mpo = in.u64("max_page_order");
	c.assume(W::ule(mpo, W::k64(20)));
	const auto present = W::kb(true);
	const auto shift = rules::rx_niov_shift<W>(p.page_shift, present, value);
	c.assume(rules::rx_attr_errno<W>(p.pol, Dir::rx, p.page_shift, present, value) == W::k32(0));
	c.assume(rules::rx_queue_errno<W>(p.dev, p.page_shift, mpo, shift, shift - W::k64(p.page_shift)) ==
		 W::k32(0));
	c.prove(W::ule(shift - W::k64(p.page_shift), mpo));
	return c;
}

TEST(Negative, RxOrderBeyondMaxPageOrder) {
	const Lemma l = variant("test.pp_order_low_mpo", pp_order_low_mpo<Sym>, pp_order_low_mpo<Concrete>);
	EXPECT_EQ(solve(l, at(12, Device::bnxt), {}).verdict, Verdict::counterexample);
	// ... while the catalogue's rx.pp_order (order == niov_shift - PAGE_SHIFT)
	// holds over the whole 0..20 range.
	EXPECT_EQ(solve(lemma("rx.pp_order"), at(12, Device::bnxt), {}).verdict, Verdict::proved);
}

// --- lookup -------------------------------------------------------------------

TEST(Negative, PageLookupInLargeNiovs) {
	const Policies pol = with("lookup", "page");
	auto big = [](const Point &p) { return p.page_shift == 12 && p.niov_shift == 21; };
	EXPECT_TRUE(some_counterexample(lemma("lookup.off_size"), pol, big));
	EXPECT_TRUE(some_counterexample(lemma("lookup.index_in_table"), pol, big));
	EXPECT_TRUE(some_counterexample(lemma("lookup.scan_dma"), pol, big));
	EXPECT_TRUE(some_counterexample(lemma("lookup.byte_map"), pol, big));
}

// --- clamping -----------------------------------------------------------------

TEST(Negative, NoMaxFragOnBnxt) {
	auto bnxt = [](const Point &p) { return p.page_shift == 12 && p.dev == Device::bnxt && p.niov_shift == 21; };
	EXPECT_TRUE(some_counterexample(lemma("clamp.desc_exact"), with("max_frag", "none"), bnxt));
}

TEST(Negative, ZeroTruesizeCharge) {
	auto p21 = [](const Point &p) { return p.page_shift == 12 && p.dev == Device::none && p.niov_shift == 21; };
	EXPECT_TRUE(some_counterexample(lemma("clamp.charge_covers"), with("truesize", "zero"), p21));
	EXPECT_TRUE(some_counterexample(lemma("clamp.charge_covers"), with("truesize", "page"), p21));
}

// "Frags never exceed the device max" without the max-frag clamp.
template <class W>
Claim<W> unclamped_limit(const Point &p, In<W> &in) {
	Claim<W> c;
	auto virt = in.u64("virt");
	auto length = in.u64("length");
	auto dev_max = in.u64("dev_max");
	Policies pol = p.pol;
	pol.max_frag = MaxFrag::none;
	const auto f = rules::fill_frag<W>(pol, p.page_shift, W::k64(1 << 22), W::k64(21), virt, length, length, dev_max);
	c.assume(f.ok && W::ule(length, W::k64(kIntMax)));
	c.prove(W::ule(f.size, dev_max));
	return c;
}

TEST(Negative, ClampWithoutDeviceMax) {
	const Lemma l = variant("test.unclamped_limit", unclamped_limit<Sym>, unclamped_limit<Concrete>);
	EXPECT_EQ(solve(l, at(12), {}).verdict, Verdict::counterexample);
}

// --- truesize -----------------------------------------------------------------

// tcp_trim_head of a whole skb's worth or more (the socket frees those):
// truesize wraps.
template <class W>
Claim<W> trim_too_much(const Point &, In<W> &in) {
	Claim<W> c;
	rules::SkbAcct<W> a{in.u32("len"), in.u32("truesize")};
	auto head = in.u32("head");
	auto wmem = in.u32("wmem");
	auto n = in.u32("n");
	c.assume(rules::truesize_covers<W>(a, head));
	c.assume(W::ugt(n, a.len));
	rules::trim_head<W>(a, wmem, n);
	c.prove(rules::truesize_covers<W>(a, head));
	return c;
}

// The frag step with a page-sized charge for a larger frag (truesize=page
// with 2 MiB niovs): the skb stops covering its bytes.
template <class W>
Claim<W> page_charge(const Point &p, In<W> &in) {
	Claim<W> c;
	rules::SkbAcct<W> a{in.u32("len"), in.u32("truesize")};
	auto head = in.u32("head");
	auto len = in.u32("frag.len");
	c.assume(rules::truesize_covers<W>(a, head) && W::ule(len, W::k32(1 << 21)));
	c.assume(W::ule(W::zext(a.len) + W::zext(len), W::k64(kIntMax)) &&
		 W::ule(W::zext(a.truesize), W::k64(kIntMax)));
	Policies pol = p.pol;
	pol.truesize = Truesize::page;
	const auto charge = rules::frag_charge<W>(pol, p.page_shift, len);
	a.len = a.len + len;
	a.truesize = a.truesize + charge;
	c.prove(rules::truesize_covers<W>(a, head));
	return c;
}

TEST(Negative, TruesizeSteps) {
	const Lemma trim = variant("test.trim_too_much", trim_too_much<Sym>, trim_too_much<Concrete>);
	EXPECT_EQ(solve(trim, at(12), {}).verdict, Verdict::counterexample);
	const Lemma page = variant("test.page_charge", page_charge<Sym>, page_charge<Concrete>);
	const Outcome o = solve(page, at(12), {});
	EXPECT_EQ(o.verdict, Verdict::counterexample);
	EXPECT_TRUE(o.confirmed);
}

// --- zcrx -----------------------------------------------------------------------

template <class W>
Claim<W> zcrx_small(const Point &p, In<W> &in) {
	Claim<W> c;
	auto len = in.u32("rx_buf_len");
	c.assume(rules::zcrx_errno<W>(p.page_shift, len, W::k64(30), true) == W::k32(0));
	c.prove(W::ule(len, W::k32(1 << 16)));  // wrong: up to the area's alignment
	return c;
}

TEST(Negative, ZcrxWrongBound) {
	const Lemma l = variant("test.zcrx_small", zcrx_small<Sym>, zcrx_small<Concrete>);
	EXPECT_EQ(solve(l, at(12), {}).verdict, Verdict::counterexample);
}

// --- the catalogue itself ---------------------------------------------------------

TEST(Catalogue, EveryLemmaAppliesAndAsksTheSameInputsTwice) {
	for (const auto &l : catalogue()) {
		const auto pts = l.points(preset_policies(Preset::tx_autosize));
		ASSERT_FALSE(pts.empty()) << l.id;
		z3::context ctx;
		SymScope scope(ctx);
		In<Sym> s(ctx);
		(void)l.sym(pts.front(), s);
		In<Concrete> k([](size_t, std::string_view, VarKind, const Dom &) { return uint64_t{0}; });
		(void)l.conc(pts.front(), k);
		ASSERT_EQ(s.vars().size(), k.vars().size()) << l.id;
		for (size_t i = 0; i < s.vars().size(); ++i) {
			EXPECT_EQ(s.vars()[i].name, k.vars()[i].name) << l.id;
			EXPECT_EQ(s.vars()[i].kind, k.vars()[i].kind) << l.id;
		}
		EXPECT_FALSE(l.statement.empty());
		EXPECT_FALSE(l.domain.empty());
		EXPECT_GT(l.expected_s, 0) << l.id;
	}
}

// Results are shared between points with the same label: the label must
// name everything the lemma reads, i.e. equal labels give equal queries.
TEST(Catalogue, EqualLabelsGiveEqualQueries) {
	std::vector<Policies> pols;
	for (Preset p : {Preset::baseline, Preset::net_next, Preset::tx_autosize})
		pols.push_back(preset_policies(p));
	for (unsigned mask = 0; mask < 16; mask += 5)
		pols.push_back(matrix_policies(mask));
	for (const auto &l : catalogue()) {
		std::map<std::string, std::vector<Point>> by_label;
		for (const auto &pol : pols)
			for (const auto &p : l.points(pol))
				by_label[point_label(p, l.reads)].push_back(p);
		for (const auto &[label, pts] : by_label) {
			if (pts.size() < 2)
				continue;
			// The first against the one that differs most in what it leaves out.
			EXPECT_EQ(build_query(l, pts.front()).goals, build_query(l, pts.back()).goals)
				<< l.id << " at " << label;
		}
	}
}

}  // namespace
}  // namespace niov::smt
