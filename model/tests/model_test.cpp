// Unit tests with expectations computed by hand from the seeds.
#include <gtest/gtest.h>

#include <algorithm>

#include "impl.hpp"
#include "report.hpp"
#include "test_scenarios.hpp"
#include "segs.hpp"

namespace niov {
namespace {

Scenario parse(const std::string &text) { return test::parse(text, "test.scn"); }

RunReport run(const std::string &text) { return run_scenario(parse(text), nullptr); }

bool has_violation(const Trace &t, Inv inv) {
	return std::any_of(t.violations.begin(), t.violations.end(),
			   [&](const Violation &v) { return v.invariant == id(inv); });
}

std::string violations_of(const Trace &t) {
	std::string s;
	for (const auto &v : t.violations)
		s += v.invariant + " (" + v.detail + ")\n";
	return s;
}

// Seed 000 patch 6: a 2 MiB hugetlb-backed udmabuf gives 2 MiB TX niovs.
TEST(Sizing, HugetlbUdmabufGivesTwoMegNiovs) {
	auto r = run("rules tx-autosize\nsg 0x40000000 2M\nsg 0x80200000 2M\nsg 0x1c0000000 2M\n");
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.bind.niov_shift, 21u);
	EXPECT_EQ(r.model.bind.num_niovs, 3u);
	EXPECT_TRUE(r.clean()) << violations_of(r.model);
}

// A 4 KiB memfd: page-sized segments at scattered pages give PAGE_SIZE niovs.
TEST(Sizing, MemfdGivesPageNiovs) {
	auto r = run("sg 0x12345000 4K\nsg 0x7000 4K\nsg 0x99999000 8K\n");
	EXPECT_EQ(r.model.bind.niov_shift, 12u);
	EXPECT_EQ(r.model.bind.num_niovs, 4u);
	EXPECT_TRUE(r.clean()) << violations_of(r.model);
}

// 3 MiB from 2 MiB-aligned segments: the dmabuf size limits the niov to 1 MiB.
TEST(Sizing, DmabufSizeLimitsTheNiov) {
	auto r = run("sg 0x40000000 2M\nsg 0x80000000 1M\n");
	EXPECT_EQ(r.model.bind.niov_shift, 20u);
	EXPECT_EQ(r.model.bind.num_niovs, 3u);
	auto e = run_scenario(parse("sg 0x40000000 2M\nsg 0x80000000 1M\n"), nullptr, {true, 200});
	EXPECT_NE(e.model.explain.find("dmabuf size"), std::string::npos) << e.model.explain;
}

// An unaligned segment address limits the size when addresses are checked.
TEST(Sizing, SegmentAddressLimitsTheNiov) {
	auto r = run("sg 0x40010000 2M\n");
	EXPECT_EQ(r.model.bind.niov_shift, 16u);
	auto noaddr = run("policy tx_niov=auto-noaddr bind=genpool\nsg 0x40010000 2M\n");
	EXPECT_EQ(noaddr.model.bind.niov_shift, 21u);
	EXPECT_TRUE(has_violation(noaddr.model, Inv::sizing_aligns_segments)) << violations_of(noaddr.model);
}

TEST(Sizing, LoopMatchesDeclarativeForm) {
	using W = Concrete;
	for (uint64_t a : {0x0ull, 0x1000ull, 0x3000ull, 0x10000ull, 0x200000ull, 0x7fe00000ull})
		for (uint64_t len : {0x1000ull, 0x4000ull, 0x200000ull, 0x600000ull})
			for (unsigned psh : {12u, 14u, 16u}) {
				std::vector<CSeg> segs{{a, len}, {0x40000000, 0x200000}};
				const uint64_t size = len + 0x200000;
				EXPECT_EQ((rules::tx_size_loop<W>(TxNiov::autosize, psh, size, segs)),
					  (rules::tx_size_decl<W>(TxNiov::autosize, psh, size, segs)))
					<< a << " " << len << " " << psh;
			}
}

TEST(Bind, UnalignedTxDmabufIsEinval) {
	auto r = run("dmabuf_size 0x201800\nsg 0x40000000 0x201800\n");
	EXPECT_EQ(r.model.bind.err, -kEINVAL);
}

// The selftest of seed 000 patch 7: 3 MiB with a 7-byte period from a 2 MiB
// hugetlb udmabuf comes out of the frags byte for byte.
TEST(Payload, ThreeMegSendIsByteExact) {
	const Scenario sc = parse("rules tx-autosize\nsg 0x40000000 2M\nsg 0x80200000 2M\nsend 0+3M\n");
	const RunReport r = run_scenario(sc, nullptr);
	ASSERT_TRUE(r.clean()) << violations_of(r.model);
	ASSERT_EQ(r.model.ops.at(0).result, 3 << 20);
	const char pattern[] = "abcdefg";
	// The device reads DMA addresses; map each back to its dmabuf byte.
	auto byte_at_dma = [&](uint64_t dma) -> char {
		uint64_t virt = 0;
		for (const auto &s : sc.segs) {
			if (dma >= s.addr && dma < s.addr + s.len)
				return pattern[(virt + dma - s.addr) % 7];
			virt += s.len;
		}
		ADD_FAILURE() << "DMA address outside the dmabuf: " << dma;
		return 0;
	};
	ModelImpl m;
	ASSERT_EQ(m.bind(sc).err, 0);
	uint64_t sent = 0;
	bool crossed = false;
	for (const auto &skb : r.model.ops[0].skbs) {
		EXPECT_LE(skb.len, sc.cfg.size_goal);
		for (const auto &f : skb.frags) {
			const uint64_t base = *m.niov_dma(f.frag.niov) + f.frag.off;
			crossed |= f.frag.niov == 1 && f.frag.off == 0;
			for (uint32_t j = 0; j < f.frag.len; ++j, ++sent)
				ASSERT_EQ(byte_at_dma(base + j), pattern[sent % 7]) << "byte " << sent;
		}
	}
	EXPECT_EQ(sent, 3u << 20);
	EXPECT_TRUE(crossed) << "the send must continue past the 2 MiB niov boundary";
}

TEST(Frags, BnxtFragsAreCappedAt32K) {
	auto r = run("device bnxt\nsg 0x40000000 2M\nsend 0x1000+1M\n");
	ASSERT_TRUE(r.clean()) << violations_of(r.model);
	uint32_t largest = 0;
	for (const auto &skb : r.model.ops[0].skbs) {
		if (skb.len == 65160) {  // full skbs; the last one is the remainder
			EXPECT_GE(skb.frags.size(), 2u);
		}
		EXPECT_LE(skb.frags.size(), 3u);
		for (const auto &f : skb.frags)
			largest = std::max(largest, f.frag.len);
	}
	EXPECT_EQ(largest, 32768u);
}

// bnxt on 64 KiB pages with BIG TCP before the per-device cap: 64 KiB frags
// wrap the 16-bit BD length (seed 000 patch 5).
TEST(Frags, BnxtSixtyFourKPagesTruncateWithoutCap) {
	auto r = run("rules net-next\npage_shift 16\ndevice bnxt\nsize_goal 522728\nsg 0x40000000 4M\nsend 0+1M\n");
	EXPECT_TRUE(has_violation(r.model, Inv::dev_desc_len_exact)) << violations_of(r.model);
	auto fixed = run("rules tx-autosize\npage_shift 16\ndevice bnxt\nsize_goal 522728\nsg 0x40000000 4M\nsend 0+1M\n");
	EXPECT_TRUE(fixed.clean()) << violations_of(fixed.model);
}

TEST(Frags, TooManyFragsIsEmsgsizeAndANewSkb) {
	std::string iov;
	for (int i = 0; i < 20; ++i)
		iov += " " + std::to_string(i * 8192) + "+100";
	auto r = run("rules net-next\nsg 0x40000000 1M\nsend" + iov + "\n");
	ASSERT_EQ(r.model.ops[0].result, 2000);
	ASSERT_EQ(r.model.ops[0].skbs.size(), 2u);
	EXPECT_EQ(r.model.ops[0].skbs[0].frags.size(), 17u);
	EXPECT_EQ(r.model.ops[0].skbs[1].frags.size(), 3u);
}

// The run holds the sends to RunOptions' frag and skb counts, whatever the
// input: a 64 KiB send of page niovs, 16 + 1 frags in 2 skbs, fits in exactly
// those limits and not in one less.
TEST(Limits, RunStopsOneFragOrSkbPastItsOptions) {
	const Scenario sc = parse("rules net-next\nsg 0x40000000 1M\nsend 0+64K\n");
	ModelImpl m;
	RunOptions opts;
	opts.max_frags = 17;
	opts.max_skbs = 2;
	ASSERT_NO_THROW(trace_scenario(sc, m, opts));
	opts.max_frags = 16;
	EXPECT_THROW(trace_scenario(sc, m, opts), LimitError);
	opts.max_frags = 17;
	opts.max_skbs = 1;
	EXPECT_THROW(trace_scenario(sc, m, opts), LimitError);
}

// A known finding (a lying exporter's table) is left out on request, a
// violation no known finding explains (a page-granular lookup the rules
// were declared with) never is.
TEST(Violations, KnownFindingsLeftOutOnRequest) {
	const Scenario lying = parse("rules tx-autosize\ndmabuf_size 2M\nsg 0x40000000 1M\nsend 0+4K\n");
	Scenario declared = parse("rules tx-autosize\npolicy lookup=page\nsg 0x40000000 2M\nsg 0x80200000 2M\n"
				  "send 0x1ff000+8K\n");
	declared.cfg.rules_declared = true;
	RunOptions all, unknown;
	unknown.skip_known_findings = true;
	ModelImpl m;
	EXPECT_TRUE(has_violation(trace_scenario(lying, m, all), Inv::bind_sg_covers_dmabuf));
	EXPECT_TRUE(trace_scenario(lying, m, unknown).violations.empty());
	const Trace t = trace_scenario(declared, m, unknown);
	EXPECT_TRUE(has_violation(t, Inv::lookup_byte_map)) << violations_of(t);
}

TEST(Frags, OffsetPastTheDmabufIsEfault) {
	auto r = run("sg 0x40000000 2M\nsend 2M+1\n");
	EXPECT_EQ(r.model.ops[0].result, -kEFAULT);
	EXPECT_EQ(r.model.ops[0].wmem, 0);  // the empty skb is freed
}

TEST(Rx, RxBufSizeValidation) {
	EXPECT_EQ(run("dir rx\nrx_buf_size 0\nsg 0 1M\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("dir rx\nrx_buf_size 3000\nsg 0 1M\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("dir rx\nrx_buf_size 2048\nsg 0 1M\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("dir rx\npage_shift 16\nrx_buf_size 16K\nsg 0 1M\n").model.bind.err, -kEINVAL);
	auto ok = run("dir rx\nrx_buf_size 16K\nsg 0 1M\n");
	EXPECT_EQ(RunReport::bind_err(ok.model), 0);
	EXPECT_EQ(ok.model.bind.niov_shift, 14u);
	EXPECT_EQ(ok.model.pp_order, 2u);
	EXPECT_TRUE(ok.clean()) << violations_of(ok.model);
	// Unknown attribute before the RX series; no such attribute on bind-tx.
	EXPECT_EQ(run("rules baseline\ndir rx\nrx_buf_size 16K\nsg 0 1M\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("dir tx\nrx_buf_size 16K\nsg 0 1M\n").model.bind.err, -kEINVAL);
	// Segment not aligned to the requested size.
	EXPECT_EQ(run("dir rx\nrx_buf_size 64K\nsg 0x1000 1M\n").model.bind.err, -kEINVAL);
}

TEST(Rx, PagePoolOrderMismatchIsE2big) {
	auto r = run("dir rx\nrx_buf_size 16K\npp_order 0\nsg 0 1M\n");
	EXPECT_EQ(r.model.bind.err, 0);
	EXPECT_EQ(r.model.queue_err, -kE2BIG);
	EXPECT_EQ(RunReport::bind_err(r.model), -kE2BIG);
}

TEST(Rx, DeviceLimits) {
	EXPECT_EQ(RunReport::bind_err(run("dir rx\ndevice bnxt\nrx_buf_size 64K\nsg 0 1M\n").model), -kERANGE);
	EXPECT_EQ(RunReport::bind_err(run("dir rx\ndevice bnxt\nrx_buf_size 32K\nsg 0 1M\n").model), 0);
	EXPECT_EQ(RunReport::bind_err(run("dir rx\ndevice gve\nrx_buf_size 32K\nsg 0 1M\n").model), -kEOPNOTSUPP);
}

TEST(Zcrx, RxBufLen) {
	EXPECT_EQ(run("dir zcrx\nrx_buf_size 3000\nsg 0 1M\n").model.bind.err, -kEINVAL);
	EXPECT_EQ(run("dir zcrx\nrx_buf_size 64K\nsg 0 1M\nsg 0x200000 32K\n").model.bind.err, -kERANGE);
	EXPECT_EQ(run("dir zcrx\nrx_buf_size 32K\nzcrx_device 0\nsg 0 1M\n").model.bind.err, -kEOPNOTSUPP);
	auto ok = run("dir zcrx\ndevice bnxt\nrx_buf_size 32K\nsg 0 1M\n");
	EXPECT_EQ(RunReport::bind_err(ok.model), 0);
	EXPECT_EQ(ok.model.bind.niov_shift, 15u);
}

// The reference's worked example: 2 MiB niovs charged PAGE_SIZE, an ACK of
// 8688 bytes wraps truesize and drives sk_wmem_queued negative.
TEST(Truesize, PageChargeWithLargeNiovsUnderflows) {
	auto r = run("policy truesize=page\nskb_head_truesize 1024\nsg 0x40000000 2M\nsend 0+65160\nack 8688\nfree\n");
	EXPECT_EQ(r.model.ops[1].wmem, 5120 - 8688);
	EXPECT_TRUE(has_violation(r.model, Inv::tcp_truesize_covers_bytes));
	EXPECT_TRUE(has_violation(r.model, Inv::tcp_truesize_no_wrap));
	EXPECT_TRUE(has_violation(r.model, Inv::tcp_wmem_nonneg));
	EXPECT_EQ(r.model.ops[2].wmem, 0);  // conservation holds modulo 2^32
}

TEST(Truesize, LengthChargeSurvivesEveryOp) {
	auto r = run("sg 0x40000000 2M\nsend 0+200000\nsplit 14480\nshift 1000\nack 8688\nack 100000\nfree\n");
	EXPECT_TRUE(r.clean()) << violations_of(r.model);
	EXPECT_EQ(r.model.ops.back().wmem, 0);
}

// skb_shift never merges a moved frag into the head skb's last one, even when
// they are contiguous in one niov (skb_can_coalesce refuses zerocopy skbs):
// a head skb with MAX_SKB_FRAGS frags cannot take one more byte.
TEST(Tcp, ShiftDoesNotMergeContiguousFrags) {
	std::string elems;
	for (int i = 0; i < 18; ++i)
		elems += " " + std::to_string(i * 100) + "+100";
	auto r = run("sg 0x40000000 2M\nsize_goal 1700\nsend" + elems + "\nshift 100\n");
	ASSERT_EQ(r.model.ops.size(), 2u);
	ASSERT_EQ(r.model.ops[0].skbs.size(), 2u);
	EXPECT_EQ(r.model.ops[0].skbs[0].frags.size(), 17u);
	EXPECT_EQ(r.model.ops[1].queued, 2u) << "the shift must be refused, not merged";
	EXPECT_EQ(r.model.ops[1].truesize_sum, r.model.ops[0].truesize_sum);
}

// gve writes one descriptor per 16383 bytes while bytes are left: an empty
// frag (a leading empty iovec element) takes none.
TEST(Device, GveEmptyFragTakesNoDescriptor) {
	std::vector<uint32_t> lens{7};
	EXPECT_EQ(device_encode_tx_desc(Device::gve, 0, lens), 0);
	EXPECT_TRUE(lens.empty());
	EXPECT_EQ(device_encode_tx_desc(Device::gve, 16384, lens), 0);
	EXPECT_EQ(lens, (std::vector<uint32_t>{16383, 1}));
}

}  // namespace
}  // namespace niov
