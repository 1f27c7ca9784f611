// The generators themselves: what they make survives the scenario file
// format (a failure file must replay the case), and they reach the edges
// they exist for (RapidCheck weights none of them by itself).
#include <set>

#include <rapidcheck.h>

#include "gen_scenario.hpp"
#include "oracle.hpp"
#include "test_support.hpp"

namespace niov::props {
namespace {

Shape everything() {
	Shape s;
	s.space.overrides = true;
	s.dirs = {Dir::tx, Dir::rx, Dir::zcrx};
	s.max_sends = 4;
	s.tcp_ops = true;
	return s;
}

template <typename T>
T sample(const rc::Gen<T> &g, rc::Random &r, int size = 50) {
	return g(r.split(), size).value();
}

// Sanitizer builds run the generators ~30x slower; the file format still
// gets a few hundred scenarios there, the coverage count only runs in the
// plain build (it measures the generators, not the code under test).
constexpr int kRoundTrips = NIOV_PROPS_SANITIZED ? 300 : 3000;

TEST(Gen, ScenariosSurviveTheFileFormat) {
	rc::Random r(7);
	for (int i = 0; i < kRoundTrips; ++i) {
		const Scenario sc = sample(gen_scenario(everything()), r);
		const std::string text = serialize_scenario(sc);
		const auto parsed = parse_scenario(text, "gen.scn");
		ASSERT_TRUE(parsed.scenario) << parsed.error.message << "\n" << text;
		ASSERT_EQ(serialize_scenario(*parsed.scenario), text);
		ASSERT_EQ(parsed.scenario->dmabuf_size, sc.dmabuf_size) << text;
		ASSERT_EQ(parsed.scenario->ops.size(), sc.ops.size()) << text;
	}
}

TEST(Gen, ReachesTheEdges) {
	if (NIOV_PROPS_SANITIZED)
		GTEST_SKIP() << "generator coverage is measured in the plain build";
	rc::Random r(11);
	std::set<std::string> seen;
	for (int i = 0; i < 8000; ++i) {
		Shape s = everything();
		s.dirs = {Dir::tx};
		const Scenario sc = sample(gen_scenario(s), r);
		const uint64_t page = sc.cfg.page_size();
		const size_t plus = sc.name.find('+');
		seen.insert("table:" + sc.name.substr(0, plus));
		if (plus != std::string::npos)
			seen.insert("lie:" + sc.name.substr(plus + 1));
		seen.insert("page_shift:" + std::to_string(sc.cfg.page_shift));
		seen.insert("device:" + std::string(name(sc.cfg.device)));
		seen.insert("preset:" + std::string(name(sc.cfg.preset)));
		seen.insert("max_skb_frags:" + std::to_string(sc.cfg.max_skb_frags));
		if (policies_string(sc.cfg.policy) != policies_string(preset_policies(sc.cfg.preset)))
			seen.insert("override");
		const auto b = oracle::bind(sc);
		seen.insert("bind:" + std::string(errno_name(b.err)));
		for (const auto &op : sc.ops) {
			if (op.kind != OpKind::send)
				continue;
			if (op.iov.size() > 1024)
				seen.insert("send:past_uio_maxiov");
			if (op.iov.size() > 1)
				seen.insert("send:multi");
			for (const auto &e : op.iov) {
				const uint64_t end = e.base + e.len;
				if (e.len == 0)
					seen.insert("elem:empty");
				if (end == sc.dmabuf_size && e.len)
					seen.insert("elem:ends_at_dmabuf_end");
				if (end == sc.dmabuf_size + 1)
					seen.insert("elem:one_past_dmabuf_end");
				if (e.base == sc.dmabuf_size)
					seen.insert("elem:starts_at_dmabuf_end");
				if (b.err == 0 && e.base && e.base % (uint64_t{1} << b.shift) == 0)
					seen.insert("elem:starts_at_niov_boundary");
				if (b.err == 0 && (e.base + 1) % (uint64_t{1} << b.shift) == 0)
					seen.insert("elem:starts_one_before_niov_boundary");
				if (e.len > sc.cfg.size_goal && e.len < UINT32_MAX)
					seen.insert("elem:larger_than_skb");
				for (uint64_t v : {uint64_t{UINT32_MAX}, uint64_t{INT32_MAX}, page - 1, page + 1,
						   uint64_t{1} << 21, (uint64_t{1} << 21) + 1, UINT64_MAX})
					if (e.len == v)
						seen.insert("len:" + std::to_string(v == page - 1   ? 1
										    : v == page + 1 ? 2
												    : v));
			}
		}
	}
	std::vector<std::string> want{"send:past_uio_maxiov", "send:multi", "elem:empty", "elem:ends_at_dmabuf_end",
				      "elem:one_past_dmabuf_end", "elem:starts_at_dmabuf_end",
				      "elem:starts_at_niov_boundary", "elem:starts_one_before_niov_boundary",
				      "elem:larger_than_skb", "override", "page_shift:12", "page_shift:14",
				      "page_shift:16", "max_skb_frags:17", "max_skb_frags:45", "bind:0", "bind:-EINVAL",
				      "bind:-E2BIG", "bind:-ENOMEM", "len:4294967295", "len:2147483647", "len:1",
				      "len:2", "len:2097152", "len:2097153", "len:18446744073709551615"};
	for (auto e : {"udmabuf", "hugetlb", "mixed", "gpu", "coalesced"})
		want.push_back(std::string("table:") + e);
	for (Lie l : all_lies())
		want.push_back("lie:" + std::string(name(l)));
	for (auto d : {"none", "mlx5", "gve", "fbnic", "bnxt"})
		want.push_back(std::string("device:") + d);
	for (auto p : {"baseline", "net-next", "tx-autosize"})
		want.push_back(std::string("preset:") + p);
	for (const auto &w : want)
		EXPECT_TRUE(seen.count(w)) << "never generated: " << w;
}

}  // namespace
}  // namespace niov::props
