// The fuzz input codec: every byte string decodes to a scenario the parser
// accepts, decode(encode(s)) == s inside each target's domain, and the
// shipped scenarios encode for the targets whose domain they are in.
#include <filesystem>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "budget.hpp"
#include "decode.hpp"
#include "number.hpp"

namespace niov::fuzz {
namespace {

constexpr Target kByteTargets[] = {Target::bind, Target::send, Target::config};

Scenario decode(const std::vector<uint8_t> &b, Target t) { return decode_scenario(b.data(), b.size(), t); }

TEST(Number, BoundaryValuesRoundTripShort) {
	const NumCtx ctx{{6u << 20, 0x1ff000}};
	const std::pair<uint64_t, size_t> cases[] = {
		{0, 1},	       {1, 1},		    {31, 1},	  {UINT32_MAX, 1}, {UINT64_MAX, 1},
		{65160, 1},    {(2u << 20) + 1, 2}, {4095, 2},	  {6u << 20, 2},   {(6u << 20) + 1, 2},
		{0x1ff000, 2}, {uint64_t{1} << 40, 2}, {12345678901234ull, 8}};
	for (const auto &[v, max_len] : cases) {
		ByteWriter w;
		encode_number(w, v, ctx);
		EXPECT_LE(w.bytes().size(), max_len) << v;
		ByteReader r(w.bytes().data(), w.bytes().size());
		EXPECT_EQ(decode_number(r, ctx), v);
		EXPECT_TRUE(r.empty());
	}
}

RC_GTEST_PROP(Number, RoundTrips, (uint64_t v, uint64_t ref0, uint64_t ref1)) {
	const NumCtx ctx{{ref0, ref1}};
	ByteWriter w;
	encode_number(w, v, ctx);
	ByteReader r(w.bytes().data(), w.bytes().size());
	RC_ASSERT(decode_number(r, ctx) == v);
	RC_ASSERT(r.empty());
}

TEST(Decode, EmptyInputIsTheDefaultTxAutosizeScenario) {
	const Scenario sc = decode({}, Target::send);
	EXPECT_EQ(sc.cfg.preset, Preset::tx_autosize);
	EXPECT_EQ(sc.dir, Dir::tx);
	EXPECT_TRUE(sc.segs.empty());
	EXPECT_TRUE(sc.ops.empty());
}

// Any bytes: the parser accepts the scenario's text and gives it back, so
// every fuzz input can be saved and replayed as a scenario file.
RC_GTEST_PROP(Decode, AnyBytesGiveAParsableScenario, (std::vector<uint8_t> bytes)) {
	for (Target t : kByteTargets) {
		const Scenario sc = decode(bytes, t);
		const std::string text = input_text(sc);
		auto back = parse_scenario(text, "x");
		RC_ASSERT(back.scenario.has_value());
		RC_ASSERT(input_text(*back.scenario) == text);
	}
}

// Anything decoded is in the domain and encodes back to itself.
RC_GTEST_PROP(Decode, DecodedScenariosReencode, (std::vector<uint8_t> bytes)) {
	for (Target t : kByteTargets) {
		const Scenario sc = decode(bytes, t);
		const Encoded e = encode_scenario(sc, t);
		RC_ASSERT(e.error.empty());
		RC_ASSERT(input_text(decode(e.bytes, t)) == input_text(sc));
	}
}

// The fuzz loop's decoder keeps one scenario across inputs: each input
// decodes to what it decodes to alone, whatever came before it (a flag, a
// segment or a send of the previous input must not stay behind).
RC_GTEST_PROP(Decode, ReusedDecoderMatchesAFreshOne, (std::vector<std::vector<uint8_t>> inputs)) {
	ScenarioDecoder decoder;
	for (size_t i = 0; i < inputs.size(); ++i) {
		const Target t = kByteTargets[i % std::size(kByteTargets)];
		const Scenario fresh = decode(inputs[i], t);
		const Scenario &reused = decoder.decode(inputs[i].data(), inputs[i].size(), t);
		RC_ASSERT(input_text(reused) == input_text(fresh));
		RC_ASSERT(reused.name == fresh.name);
		RC_ASSERT(reused.ops.size() == fresh.ops.size());
		for (size_t k = 0; k < fresh.ops.size(); ++k)
			RC_ASSERT(reused.ops[k].line == fresh.ops[k].line);
	}
}

std::vector<Scenario> shipped() {
	std::vector<Scenario> out;
	for (const auto &e : std::filesystem::directory_iterator(NIOV_CORPUS_DIR "/scenarios")) {
		auto r = load_scenario_file(e.path().string());
		EXPECT_TRUE(r.scenario) << r.error.message;
		if (r.scenario)
			out.push_back(std::move(*r.scenario));
	}
	EXPECT_GE(out.size(), 20u);
	return out;
}

TEST(Encode, ShippedScenariosRoundTripInTheirTargets) {
	size_t encoded = 0;
	for (const auto &sc : shipped()) {
		for (Target t : kByteTargets) {
			const Encoded e = encode_scenario(sc, t);
			if (!e.error.empty())
				continue;
			++encoded;
			EXPECT_EQ(input_text(decode(e.bytes, t)), input_text(sc)) << sc.name;
			EXPECT_TRUE(within_budget(sc)) << sc.name << " work " << work_estimate(sc);
		}
		const bool tx = sc.dir == Dir::tx;
		// A declared rule change (policy tx_niov_max) reaches the byte
		// targets by $NIOV_POLICY, not through the layout.
		const bool in_layout = sc.cfg.policy.tx_niov_max_shift == Policies{}.tx_niov_max_shift;
		EXPECT_EQ(encode_scenario(sc, Target::send).error.empty(), tx && in_layout) << sc.name;
		EXPECT_EQ(encode_scenario(sc, Target::config).error.empty(), !tx && sc.ops.empty()) << sc.name;
	}
	EXPECT_GE(encoded, 30u);
}

TEST(Encode, OutOfDomainIsAnError) {
	Scenario sc;
	sc.dir = Dir::zcrx;
	EXPECT_NE(encode_scenario(sc, Target::send).error, "");
	EXPECT_NE(encode_scenario(sc, Target::bind).error, "");
	EXPECT_EQ(encode_scenario(sc, Target::config).error, "");
	sc.dir = Dir::tx;
	sc.ops.push_back(Op{OpKind::ack, {}, std::nullopt, 5, 1});
	EXPECT_NE(encode_scenario(sc, Target::bind).error, "");
	EXPECT_EQ(encode_scenario(sc, Target::send).error, "");
	EXPECT_NE(encode_scenario(sc, Target::scenario).error, "");
}

// The plugin's tables follow the sg entries as well as the dmabuf size: an
// entry far past a 0-byte dmabuf still builds its chunk's niovs.
TEST(Budget, PluginTablesCountEverySgEntry) {
	Scenario sc;
	sc.dir = Dir::rx;
	sc.cfg.page_shift = 12;
	sc.dmabuf_size = 0;
	const uint64_t cap_bytes = kMaxPluginNiovs << 12;
	sc.segs = {DmaSeg{0, 0xe40000000}};
	EXPECT_FALSE(plugin_affordable(sc)) << "57 GiB sg entry of a 0-byte dmabuf";
	sc.segs = {DmaSeg{0, cap_bytes}};
	EXPECT_TRUE(plugin_affordable(sc));
	sc.dmabuf_size = cap_bytes;
	EXPECT_FALSE(plugin_affordable(sc)) << "the dmabuf's table and the entry's";
	sc.dmabuf_size = 0;
	sc.segs = {DmaSeg{0, (kMaxNiovTable + 1) << 12}};
	EXPECT_TRUE(plugin_affordable(sc)) << "a table past the allocation limit is refused unfilled";
}

}  // namespace
}  // namespace niov::fuzz
