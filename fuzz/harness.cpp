#include "harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "findings.hpp"
#include "limits.hpp"
#include "plugin.hpp"
#include "report.hpp"

namespace niov::fuzz {

namespace {

const char *g_input_path = nullptr;
// decode_only stores here so the optimizer cannot drop the decoding.
volatile size_t g_sink;

struct PluginState {
	std::unique_ptr<PluginImpl> impl;
	std::string path;
	Preset rules = Preset::tx_autosize;
};

// Loaded once per process; a plugin that cannot load ends the run at once
// rather than fuzzing the model alone by mistake.
PluginState &plugin() {
	static PluginState st = [] {
		PluginState s;
		const char *p = std::getenv("NIOV_IMPL");
		if (!p || !*p)
			return s;
		try {
			s.impl = std::make_unique<PluginImpl>(p);
		} catch (const PluginError &e) {
			std::fprintf(stderr, "niovcheck-fuzz: %s\n", e.what());
			std::exit(2);
		}
		s.path = p;
		try {
			s.rules = rules_for_plugin(*s.impl);
		} catch (const std::exception &e) {
			std::fprintf(stderr, "niovcheck-fuzz: %s\n", e.what());
			std::exit(2);
		}
		return s;
	}();
	return st;
}

struct KeepGoing {};

[[noreturn]] void fail(Target t, const std::string &what, const std::string &source, uint32_t step,
		       const std::string &detail) {
	const auto &pl = plugin();
	const std::string impl = pl.impl ? " --impl " + pl.path : "";
	const char *input = g_input_path ? g_input_path : "CRASH_INPUT";
	std::string cmd;
	if (t == Target::scenario)
		cmd = "niovcheck replay " + std::string(input) + impl;
	else
		cmd = "niovcheck corpus decode --target " + std::string(name(t)) + impl + " " + input +
		      " crash.scn && niovcheck replay crash.scn" + impl;
	std::string line = "niovcheck-fuzz " + std::string(name(t)) + ": " + what + " (" + source +
			   ", step " + std::to_string(step) + "): " + detail + " | replay: " + cmd;
	for (char &c : line)
		if (c == '\n')
			c = ' ';
	std::fprintf(stderr, "%s\n", line.c_str());
	std::fflush(stderr);
	// Speed measurements while a finding is open: report, do not stop.
	static const bool keep_going = std::getenv("NIOV_FUZZ_KEEP_GOING") != nullptr;
	if (keep_going)
		throw KeepGoing{};
	std::abort();
}

void check_violations(Target t, const Scenario &sc, const Trace &tr) {
	for (const auto &v : tr.violations)
		if (!is_known_finding(sc, v.invariant))
			fail(t, v.invariant, v.source, v.step, v.detail);
}

// The model always; the plugin when loaded and its niov table is small.
// Returns -1 for a scenario over the work budget.
int run_checks(Target t, Scenario &sc) {
	auto &pl = plugin();
	if (pl.impl)
		pin_rules(sc, pl.rules);
	if (!within_budget(sc))
		return -1;
	const RunOptions opts;
	ModelImpl model;
	const Trace m = trace_scenario(sc, model, opts);
	check_violations(t, sc, m);
	if (!pl.impl || !plugin_affordable(sc))
		return 0;
	const Trace i = trace_scenario(sc, *pl.impl, opts);
	check_violations(t, sc, i);
	const auto diffs = diff_traces(m, i);
	if (!diffs.empty()) {
		const auto &d = diffs.front();
		fail(t, "differential", "model vs " + i.source, d.step,
		     d.what + ": model " + d.model + ", plugin " + d.impl);
	}
	return 0;
}

// The parser on arbitrary text: a clean one-line error naming the input, or
// a scenario that survives its own canonical text.
int run_text(const uint8_t *data, size_t size) {
	static const std::string kName = "fuzz-input";
	const std::string_view text(reinterpret_cast<const char *>(data), size);
	auto r = parse_scenario(text, kName);
	if (!r.scenario) {
		const std::string &m = r.error.message;
		if (m.empty() || m.find('\n') != std::string::npos || m.rfind(kName + ":", 0) != 0)
			fail(Target::scenario, "scenario.clean_error", "parser", 0,
			     "error message '" + m.substr(0, 200) + "' is not one 'file:line: message' line");
		return 0;
	}
	const std::string canon = serialize_scenario(*r.scenario);
	auto again = parse_scenario(canon, kName);
	if (!again.scenario || serialize_scenario(*again.scenario) != canon)
		fail(Target::scenario, "scenario.roundtrip", "parser", 0,
		     again.scenario ? "serialize(parse(serialize(s))) differs"
				    : "its canonical text does not parse: " + again.error.message);
	return run_checks(Target::scenario, *r.scenario);
}

}  // namespace

int run_target(Target t, const uint8_t *data, size_t size) {
	try {
		if (t == Target::scenario)
			return run_text(data, size);
		Scenario sc = decode_scenario(data, size, t);
		return run_checks(t, sc);
	} catch (const KeepGoing &) {
		return 0;
	} catch (const LimitError &) {
		return -1;  // past a documented limit: not an input to keep
	}
}

int decode_only(Target t, const uint8_t *data, size_t size) {
	if (t == Target::scenario) {
		auto r = parse_scenario(std::string_view(reinterpret_cast<const char *>(data), size), "x");
		g_sink = r.scenario ? r.scenario->ops.size() : r.error.message.size();
		return 0;
	}
	const Scenario sc = decode_scenario(data, size, t);
	g_sink = sc.ops.size() + sc.segs.size();
	return 0;
}

void set_input_path(const char *path) { g_input_path = path; }

}  // namespace niov::fuzz
