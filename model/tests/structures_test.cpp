// The model's fast structures answer exactly what the specifications they
// stand for answer: SegIndex against the folds of rules.hpp (the ones the
// proofs reason about), over tables with zero-length, huge and wrapping
// segments; SkbQueue's reshaping against a plain vector of skbs; FragRefs'
// counts against a map of every niov.  The queue's storage is reused from
// one run to the next, never while its holder lives.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>

#include "buffer_stash.hpp"
#include "frag_refs.hpp"
#include "front_room_vector.hpp"
#include "impl.hpp"
#include "run_order.hpp"
#include "seg_index.hpp"
#include "skb_queue.hpp"
#include "test_scenarios.hpp"

namespace niov {
namespace {

using W = Concrete;

rc::Gen<CSeg> gen_seg() {
	return rc::gen::build<CSeg>(
		rc::gen::set(&CSeg::addr, rc::gen::oneOf(rc::gen::element<uint64_t>(0, 1 << 12, 1 << 21, UINT64_MAX - 4095),
							 rc::gen::arbitrary<uint64_t>())),
		rc::gen::set(&CSeg::len, rc::gen::oneOf(rc::gen::element<uint64_t>(0, 4096, 8192, 1 << 21),
							rc::gen::inRange<uint64_t>(0, 1 << 22),
							rc::gen::element<uint64_t>(uint64_t{1} << 63, UINT64_MAX))));
}

// Offsets near every segment boundary, and anywhere.
uint64_t probe(const std::vector<CSeg> &segs) {
	uint64_t start = 0;
	std::vector<uint64_t> marks{0, UINT64_MAX};
	for (const auto &s : segs) {
		marks.push_back(start);
		start += s.len;
		marks.push_back(start - 1);
		marks.push_back(start);
	}
	return *rc::gen::oneOf(rc::gen::map(rc::gen::pair(rc::gen::elementOf(marks), rc::gen::inRange<int64_t>(-3, 4)),
					    [](auto p) { return p.first + static_cast<uint64_t>(p.second); }),
			       rc::gen::arbitrary<uint64_t>());
}

// The linear walk Checker once did, kept here as the specification.
bool linear_walk(const std::vector<CSeg> &segs, uint64_t virt, uint64_t len, uint64_t dma) {
	uint64_t start = 0, done = 0;
	for (const auto &s : segs) {
		if (done == len)
			break;
		const uint64_t at = virt + done;
		if (at >= start && at - start < s.len) {
			const uint64_t piece = std::min(s.len - (at - start), len - done);
			if (s.addr + (at - start) != dma + done)
				return false;
			done += piece;
		}
		start += s.len;
	}
	return done == len;
}

RC_GTEST_PROP(SegIndex, ByteMapIsTheFold, ()) {
	const auto segs = *rc::gen::container<std::vector<CSeg>>(gen_seg());
	const SegIndex idx(segs);
	for (int k = 0; k < 8; ++k) {
		const uint64_t v = probe(segs);
		const auto want = rules::byte_map<W>(segs, v);
		const auto got = idx.byte_map(v);
		RC_ASSERT(got.ok == want.ok);
		if (want.ok)
			RC_ASSERT(got.dma == want.dma);
		const uint64_t len = *rc::gen::element<uint64_t>(0, 1, 4095, 4096, 1 << 21, 3 << 20);
		const uint64_t dma = want.ok && *rc::gen::arbitrary<bool>() ? want.dma : *rc::gen::arbitrary<uint64_t>();
		RC_ASSERT(idx.linear(v, len, dma) == linear_walk(segs, v, len, dma));
		const auto run = idx.byte_map_run(v, len);
		RC_ASSERT(run.mapped == want.ok);
		if (want.ok) {
			RC_ASSERT(run.dma == want.dma);
			RC_ASSERT(run.linear == linear_walk(segs, v, len, want.dma));
		}
	}
}

RC_GTEST_PROP(SegIndex, NiovDmaIsTheFold, ()) {
	const auto segs = *rc::gen::container<std::vector<CSeg>>(gen_seg());
	const unsigned shift = *rc::gen::element(12u, 14u, 16u, 21u, 0u);
	const uint64_t num = *rc::gen::oneOf(rc::gen::inRange<uint64_t>(0, 4096), rc::gen::just(UINT64_MAX));
	const SegIndex idx(segs, shift);
	for (int k = 0; k < 8; ++k) {
		const uint64_t i = *rc::gen::oneOf(rc::gen::inRange<uint64_t>(0, 2048), rc::gen::arbitrary<uint64_t>());
		const auto want = rules::niov_dma<W>(segs, shift, num, i);
		const auto got = idx.niov_dma(num, i);
		RC_ASSERT(got.ok == want.ok);
		if (want.ok)
			RC_ASSERT(got.dma == want.dma);
	}
}

// A queue of n skbs whose frags are numbered by skb (niov = skb, off = k).
SkbQueue numbered(const std::vector<uint32_t> &counts) {
	SkbQueue q;
	for (size_t s = 0; s < counts.size(); ++s) {
		q.push_back(Skb{});
		std::vector<QueuedFrag> fs(counts[s]);
		for (uint32_t k = 0; k < counts[s]; ++k)
			fs[k].frag = {s, k, 1, 1, 0};
		q.set_frags(s, fs);
	}
	return q;
}

std::vector<std::pair<uint64_t, uint32_t>> frags_of(const SkbQueue &q, size_t s) {
	std::vector<std::pair<uint64_t, uint32_t>> v;
	auto f = q.frags_of(s);
	for (uint32_t k = 0; k < q[s].nr_frags; ++k, ++f)
		v.emplace_back(f->frag.niov, f->frag.off);
	return v;
}

TEST(SkbQueue, EveryOperationKeepsEachSkbsFrags) {
	SkbQueue q = numbered({3, 0, 2, 5, 1});
	for (size_t s = 0; s < q.size(); ++s)
		for (const auto &f : frags_of(q, s))
			EXPECT_EQ(f.first, s);
	EXPECT_EQ(frags_of(q, 3).size(), 5u);
	q.pop_front();	// skb 0 goes
	EXPECT_EQ(frags_of(q, 0).size(), 0u);
	EXPECT_EQ(frags_of(q, 1).front().first, 2u);
	std::vector<QueuedFrag> two(2);
	two[0].frag = {9, 0, 1, 1, 0};
	two[1].frag = {9, 1, 1, 1, 0};
	q.insert_second(Skb{}, two);  // after the (empty) head
	EXPECT_EQ(frags_of(q, 1), (std::vector<std::pair<uint64_t, uint32_t>>{{9, 0}, {9, 1}}));
	EXPECT_EQ(frags_of(q, 2).front().first, 2u);
	q.set_frags(0, two);
	EXPECT_EQ(frags_of(q, 0).size(), 2u);
	EXPECT_EQ(frags_of(q, 1).size(), 2u);
	q.erase_second();
	EXPECT_EQ(frags_of(q, 1).front().first, 2u);
	q.pop_back();
	EXPECT_EQ(q.size(), 3u);
	EXPECT_EQ(frags_of(q, 2).size(), 5u);
	EXPECT_EQ(frags_of(q, 2).back(), (std::pair<uint64_t, uint32_t>{3, 4}));
	q.clear();
	EXPECT_TRUE(q.empty());
}

// Records which niovs the references went back for; asks nothing else.
class ReleaseLog final : public Impl {
public:
	std::vector<uint64_t> released;
	void frag_release(const Frag &f) override { released.push_back(f.niov); }
	std::string name() const override { return "release-log"; }
	BindResult bind(const Scenario &) override { return {}; }
	void unbind() override {}
	std::optional<uint64_t> niov_dma(uint64_t) const override { return std::nullopt; }
	LookupResult lookup(uint64_t) const override { return {}; }
	int fill(niov_skb &, IovIter &, int32_t) override { return 0; }
	std::optional<int> pp_init(unsigned) override { return std::nullopt; }
	std::optional<int> zcrx_validate(const Scenario &, uint32_t, unsigned) override { return std::nullopt; }
	std::optional<int> encode_tx_desc(uint32_t, std::vector<uint32_t> &) override { return std::nullopt; }
	uint32_t caps() const override { return 0; }
	std::optional<niov_resources> resources() const override { return std::nullopt; }
	std::optional<RxAllocResult> rx_alloc() override { return std::nullopt; }
	void rx_free(uint64_t) override {}
};

// FragRefs' rule (frag_refs.hpp) over a map of every niov: the
// specification its open-addressing table stands for.
struct RefsSpec {
	std::map<uint64_t, std::pair<uint64_t, uint64_t>> counts;  // refs, pieces
	std::vector<uint64_t> released;
	void taken(uint64_t n) {
		++counts[n].first;
		++counts[n].second;
	}
	void cut(uint64_t n) { ++counts[n].second; }
	void freed(uint64_t n) {
		auto &[refs, pieces] = counts[n];
		if (pieces)
			--pieces;
		if (refs > pieces) {
			--refs;
			released.push_back(n);
		}
	}
};

RC_GTEST_PROP(FragRefs, CountsWhatAMapOfEveryNiovCounts, ()) {
	// Indices near the first one taken, 2^16 past it, below it, and
	// anywhere: runs of neighbours and collisions in the table.
	const uint64_t first = *rc::gen::oneOf(rc::gen::inRange<uint64_t>(0, 8),
					       rc::gen::element<uint64_t>(65536, UINT64_MAX - 4));
	const auto niov = rc::gen::oneOf(
		rc::gen::map(rc::gen::inRange<uint64_t>(0, 6), [first](uint64_t d) { return first + d; }),
		rc::gen::map(rc::gen::inRange<uint64_t>(65534, 65538), [first](uint64_t d) { return first + d; }),
		rc::gen::map(rc::gen::inRange<uint64_t>(1, 4), [first](uint64_t d) { return first - d; }),
		rc::gen::arbitrary<uint64_t>());
	ReleaseLog log;
	FragRefs refs(log);
	RefsSpec spec;
	// A run of distinct niovs first: the table grows, and probes collide.
	const uint64_t run = *rc::gen::inRange<uint64_t>(1, 600);
	for (uint64_t k = 0; k < run; ++k) {
		refs.taken(Frag{first + k * 3, 0, 1, 1, 0});
		spec.taken(first + k * 3);
	}
	const auto ops = *rc::gen::container<std::vector<std::pair<int, uint64_t>>>(
		rc::gen::pair(rc::gen::inRange(0, 3), niov));
	for (const auto &[op, n] : ops) {
		const Frag f{n, 0, 1, 1, 0};
		if (op == 0) {
			refs.taken(f);
			spec.taken(n);
		} else if (op == 1) {
			refs.cut(f);
			spec.cut(n);
		} else {
			refs.freed(f);
			spec.freed(n);
		}
	}
	RC_ASSERT(log.released == spec.released);
	uint64_t held = 0;
	for (const auto &[n, c] : spec.counts)
		held += c.first;
	RC_ASSERT(refs.held() == held);
}

// Tables are kept from one run to the next with their entries: a new
// run's counts start from nothing all the same.
TEST(FragRefs, ANewRunSeesNothingOfTheLastOnesTable) {
	ReleaseLog log;
	{
		FragRefs last(log);
		last.taken(Frag{5, 0, 1, 1, 0});
		last.taken(Frag{5, 0, 1, 1, 0});
		last.cut(Frag{6, 0, 1, 1, 0});
	}  // gone with references held, as a run that stopped early
	FragRefs next(log);
	next.freed(Frag{5, 0, 1, 1, 0});
	next.freed(Frag{6, 0, 1, 1, 0});
	EXPECT_TRUE(log.released.empty());
	EXPECT_EQ(next.held(), 0u);
	next.taken(Frag{5, 0, 1, 1, 0});
	EXPECT_EQ(next.held(), 1u);
}

// Any sequence of the queue's edits leaves each skb with exactly the frags a
// vector of vectors gives it: the front room's shifts, growth and shrinking
// (front_room_vector.hpp) included.  Long runs of one edit drive the room to
// grow and shrink.
RC_GTEST_PROP(SkbQueue, EditsKeepWhatAVectorOfSkbsKeeps, ()) {
	SkbQueue q;
	std::vector<std::vector<QueuedFrag>> want;
	uint64_t tag = 0;
	auto fresh = [&tag](size_t n) {
		std::vector<QueuedFrag> v(n);
		for (auto &f : v)
			f.frag.niov = ++tag;
		return v;
	};
	const auto edits = *rc::gen::container<std::vector<std::pair<int, int>>>(
		rc::gen::pair(rc::gen::inRange(0, 7), rc::gen::inRange(1, 300)));
	for (const auto &[edit, repeat] : edits) {
		for (int r = 0; r < repeat; ++r) {
			const size_t n = *rc::gen::inRange<size_t>(0, 46);
			if (edit == 0) {  // a send's new skb
				q.push_back(Skb{});
				want.emplace_back();
				const auto f = fresh(n);
				q.set_frags(q.size() - 1, f);
				want.back() = f;
			} else if (edit == 1 && !want.empty()) {  // ack
				q.pop_front();
				want.erase(want.begin());
			} else if (edit == 2 && !want.empty()) {  // an empty skb removed
				q.pop_back();
				want.pop_back();
			} else if (edit == 3 && !want.empty()) {  // split
				const auto f = fresh(n);
				q.insert_second(Skb{}, f);
				want.insert(want.begin() + 1, f);
			} else if (edit == 4 && want.size() > 1) {  // shift emptied the second
				q.erase_second();
				want.erase(want.begin() + 1);
			} else if (edit == 5 && !want.empty()) {  // reshape the head, second or last
				const size_t which = *rc::gen::element<size_t>(0, 1, want.size() - 1) % want.size();
				const auto f = fresh(n);
				q.set_frags(which, f);
				want[which] = f;
			} else if (edit == 6) {
				q.clear();
				want.clear();
			}
		}
		RC_ASSERT(q.size() == want.size());
		for (size_t s = 0; s < want.size(); ++s) {
			RC_ASSERT(q[s].nr_frags == want[s].size());
			auto f = q.frags_of(s);
			for (const auto &w : want[s])
				RC_ASSERT((f++)->frag.niov == w.frag.niov);
		}
	}
}

// sort_falling_runs sorts whatever it gets, and the orders allocators hand
// niovs out in (rising runs, each below the one before) in linear time.
struct Counted {
	uint64_t key = 0;
	static inline uint64_t compares = 0;
	bool operator<(const Counted &o) const {
		++compares;
		return key < o.key;
	}
	bool operator==(const Counted &o) const { return key == o.key; }
};

// Its own element type, so no other test's queues share this stash.
struct StashProbe {
	uint64_t v = 0;
};

TEST(BufferStash, AQueueTakesTheStorageOfOneGoneNeverOfOneAlive) {
	const StashProbe *gone_storage = nullptr;
	{
		FrontRoomVector<StashProbe> gone;
		for (uint64_t i = 0; i < 100; ++i)
			gone.push_back({i});
		gone_storage = &gone[0];
	}
	FrontRoomVector<StashProbe> next;
	next.push_back({7});
	EXPECT_EQ(&next[0], gone_storage);  // no allocation for the next run
	FrontRoomVector<StashProbe> beside;
	beside.push_back({8});
	EXPECT_NE(&beside[0], &next[0]);
	EXPECT_EQ(next[0].v, 7u);
	EXPECT_EQ(beside[0].v, 8u);

	// Past its bound, storage is not kept: a thread keeps little.
	std::vector<StashProbe> huge;
	huge.reserve((size_t{4} << 20) / sizeof(StashProbe) + 1);
	BufferStash<StashProbe>::give(std::move(huge));
	for (int i = 0; i < 4; ++i)
		EXPECT_LT(BufferStash<StashProbe>::take().capacity(), (size_t{4} << 20) / sizeof(StashProbe));
}

// How many buffers of T the thread's stash holds (takes them all, gives
// them back).
template <class T>
size_t stashed_buffers() {
	std::vector<std::vector<T>> all;
	for (auto v = BufferStash<T>::take(); v.capacity(); v = BufferStash<T>::take())
		all.push_back(std::move(v));
	const size_t n = all.size();
	for (auto &v : all)
		BufferStash<T>::give(std::move(v));
	return n;
}

// A bind the rules refuse must hand its segment table back like one that
// succeeds.  Dropping it made the next input allocate a new one, and
// libFuzzer re-runs every input that allocates more than it frees to look
// for a leak: a fifth of the ASan bind, send and config inputs ran twice.
TEST(BufferStash, ARefusedBindGivesItsSegmentTableBack) {
	for (int i = 0; i < 4; ++i) {
		std::vector<CSeg> v;
		v.reserve(8);
		BufferStash<CSeg>::give(std::move(v));
	}
	const Scenario refused = test::parse("rules net-next\ndir rx\nrx_buf_size 16K\nsg 0x40000000 8K\nsg 0x50000000 8K\n");
	const size_t before = stashed_buffers<CSeg>();
	ASSERT_GE(before, 4u);
	for (int i = 0; i < 3; ++i) {
		ModelImpl m;
		ASSERT_NE(m.bind(refused).err, 0);
	}
	EXPECT_EQ(stashed_buffers<CSeg>(), before);
}

RC_GTEST_PROP(RunOrder, SortsAnything, (std::vector<uint64_t> v)) {
	// Small keys too: duplicates inside and across runs.
	if (*rc::gen::arbitrary<bool>())
		for (auto &x : v)
			x %= 8;
	auto want = v;
	std::sort(want.begin(), want.end());
	sort_falling_runs(v);
	RC_ASSERT(v == want);
}

RC_GTEST_PROP(RunOrder, GenPoolOrderInLinearTime, ()) {
	// Chunks of table indices handed out last chunk first, rising inside.
	const auto sizes = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(1, 600));
	std::vector<Counted> v;
	uint64_t first = 0;
	std::vector<std::pair<uint64_t, uint64_t>> chunks;
	for (const uint64_t n : sizes) {
		chunks.emplace_back(first, n);
		first += n;
	}
	for (auto c = chunks.rbegin(); c != chunks.rend(); ++c)
		for (uint64_t j = 0; j < c->second; ++j)
			v.push_back({c->first + j});
	Counted::compares = 0;
	sort_falling_runs(v);
	for (size_t i = 0; i < v.size(); ++i)
		RC_ASSERT(v[i].key == i);
	RC_ASSERT(Counted::compares <= 3 * v.size());
}

}  // namespace
}  // namespace niov
