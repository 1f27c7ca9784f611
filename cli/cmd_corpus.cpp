// corpus encode|decode: convert between scenario files and fuzz inputs, so
// any scenario can seed the fuzzers and any fuzz input can be read and
// replayed (fuzz/decode.cpp has the byte layout).
#include <stdexcept>

#include <fmt/format.h>

#include "bounded_file.hpp"
#include "commands.hpp"
#include "decode.hpp"
#include "limits.hpp"
#include "pin.hpp"
#include "plugin.hpp"
#include "rules_opts.hpp"
#include "whole_file.hpp"

namespace niov::cli {

namespace {

constexpr const char *kCorpusUsage =
	"usage: corpus encode SCENARIO_FILE OUT_BIN [--target T] | "
	"corpus decode IN_BIN OUT_SCENARIO [--target T] [--impl PATH] [--rules P] [--policy K=V]...";

// A regular file of at most kMaxInputBytes: a FIFO or /dev/zero is no input.
std::string read_file(const std::string &path) { return read_bounded(path, kMaxInputBytes); }

void write_file(const std::string &path, std::string_view data) {
	if (const std::string err = write_whole_file(path, data); !err.empty())
		throw UsageError(fmt::format("{}: cannot write: {}", path, err));
}

int encode(fuzz::Target t, const std::string &in, const std::string &out) {
	auto r = load_scenario_file(in);
	if (!r.scenario)
		throw UsageError(r.error.message);
	if (t == fuzz::Target::scenario) {  // that target's inputs are scenario text
		write_file(out, fuzz::input_text(*r.scenario));
		return kExitClean;
	}
	const fuzz::Encoded e = fuzz::encode_scenario(*r.scenario, t);
	if (!e.error.empty())
		throw UsageError(fmt::format("{}: not in the {} target's domain: {}", in, name(t), e.error));
	write_file(out, std::string_view(reinterpret_cast<const char *>(e.bytes.data()), e.bytes.size()));
	return kExitClean;
}

}  // namespace

// --impl (or --rules) pins the scenario to the rules in force, as the fuzz
// targets do when $NIOV_IMPL is set, so the file replays what they ran.
int corpus_decode(fuzz::Target t, const std::string &in, const std::string &out, const std::string &impl,
		  const RulesRequest &rules) {
	const std::string bytes = read_file(in);
	Scenario sc;
	if (t == fuzz::Target::scenario) {
		auto r = parse_scenario(bytes, in);
		if (!r.scenario)
			throw UsageError(r.error.message);
		sc = std::move(*r.scenario);
	} else {
		sc = fuzz::decode_scenario(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), t);
	}
	std::string pinned;
	if (!impl.empty() || rules.given()) {
		const auto plugin = impl.empty() ? nullptr : std::make_unique<PluginImpl>(impl);
		const RulesInForce r = resolve_rules(rules, plugin.get());
		r.pin(sc);
		pinned = fmt::format("# pinned to {}\n", rules_text(r));
	}
	write_file(out, fmt::format("# decoded from {} (fuzz target {})\n{}{}", in, name(t), pinned,
				    fuzz::input_text(sc)));
	return kExitClean;
}

int cmd_corpus(Args &args) {
	const std::string target = args.option("target", "send");
	const std::string impl = args.option("impl", "");
	const RulesRequest rules = rules_request(args);
	const auto pos = args.positional();
	const auto t = fuzz::parse_target(target);
	if (!t)
		throw UsageError(fmt::format("--target '{}': want bind, send, config or scenario", target));
	if (pos.size() != 3 || (pos[0] != "encode" && pos[0] != "decode"))
		throw UsageError(kCorpusUsage);
	if (pos[0] == "encode") {
		if (!impl.empty() || rules.given())
			throw UsageError("--impl, --rules and --policy apply to decode only");
		return encode(*t, pos[1], pos[2]);
	}
	return corpus_decode(*t, pos[1], pos[2], impl, rules);
}

}  // namespace niov::cli
