#include "harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "budget.hpp"
#include "findings.hpp"
#include "plugin.hpp"
#include "report.hpp"

namespace niov::fuzz {

namespace {

const char *g_input_path = nullptr;
// decode_only stores here so the optimizer cannot drop the decoding.
volatile size_t g_sink;
// The case being checked, for the failure file: the scenario once there is
// one, the raw text while the scenario target parses.
const Scenario *g_current = nullptr;
std::string_view g_raw_text;

struct PluginState {
	std::unique_ptr<PluginImpl> impl;
	std::string path;  // absolute, for replay commands
	RulesInForce rules;
};

// Loaded once per process; a plugin that cannot load, or whose rules are not
// known, ends the run at once rather than fuzzing the model alone, or the
// wrong rules, by mistake.
PluginState &plugin() {
	static PluginState st = [] {
		PluginState s;
		const char *p = std::getenv("NIOV_IMPL");
		if (!p || !*p)
			return s;
		try {
			s.impl = std::make_unique<PluginImpl>(p);
			s.rules = rules_from_env(*s.impl);
		} catch (const std::exception &e) {
			std::fprintf(stderr, "niovcheck-fuzz: %s\n", e.what());
			std::exit(2);
		}
		std::error_code ec;
		s.path = std::filesystem::absolute(p, ec).string();
		std::fprintf(stderr, "niovcheck-fuzz: plugin %s (%s), rules %s (%s)\n", s.path.c_str(),
			     s.impl->name().c_str(), s.rules.label().c_str(), s.rules.from.c_str());
		return s;
	}();
	return st;
}

// The CLI that replays a failure: $NIOV_CLI, else the niovcheck of this
// build tree, else whatever "niovcheck" is on PATH.
std::string cli_path() {
	if (const char *c = std::getenv("NIOV_CLI"); c && *c)
		return c;
#ifdef NIOV_CLI_PATH
	std::error_code ec;
	if (std::filesystem::exists(NIOV_CLI_PATH, ec))
		return NIOV_CLI_PATH;
#endif
	return "niovcheck";
}

std::string shell_quote(const std::string &s) {
	if (s.find_first_of(" '\"$\\`") == std::string::npos)
		return s;
	std::string q = "'";
	for (char c : s)
		q += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return q + "'";
}

// Writes @text under $NIOV_FAILURE_DIR (default ./niovcheck-failures) as
// fuzz-<target>-<hash><ext>; returns the absolute path, "" if it could not.
std::string write_failure_file(Target t, const std::string &text, const char *ext) {
	namespace fs = std::filesystem;
	const char *d = std::getenv("NIOV_FAILURE_DIR");
	std::error_code ec;
	const fs::path dir = fs::absolute(d && *d ? d : "niovcheck-failures", ec);
	fs::create_directories(dir, ec);
	uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: a stable name per case
	for (unsigned char c : text)
		h = (h ^ c) * 0x100000001b3ull;
	const fs::path file = dir / fmt::format("fuzz-{}-{:016x}{}", name(t), h, ext);
	std::ofstream out(file, std::ios::binary | std::ios::trunc);
	out << text;
	return out ? file.string() : std::string();
}

// One command that runs exactly what failed: the case as a scenario file
// with the rules in force written into it and named again by flags.
std::string replay_command(Target t, const std::string &header) {
	const auto &pl = plugin();
	const std::string impl = pl.impl ? " --impl " + shell_quote(pl.path) + " " + pl.rules.flags() : "";
	std::string file;
	if (g_current)
		file = write_failure_file(t, header + serialize_scenario(*g_current), ".scn");
	else if (g_input_path)  // the parser failed on this very file
		file = std::filesystem::absolute(g_input_path).string();
	else if (!g_raw_text.empty())
		file = write_failure_file(t, std::string(g_raw_text), ".scn");
	if (file.empty())
		return "(could not write the failing case under $NIOV_FAILURE_DIR)";
	return shell_quote(cli_path()) + " replay " + shell_quote(file) + impl;
}

struct KeepGoing {};

[[noreturn]] void fail(Target t, const std::string &what, const std::string &source, uint32_t step,
		       const std::string &detail) {
	// Speed measurements while a finding is open: report, do not stop.
	static const bool keep_going = std::getenv("NIOV_FUZZ_KEEP_GOING") != nullptr;
	std::string line = "niovcheck-fuzz " + std::string(name(t)) + ": " + what + " (" + source +
			   ", step " + std::to_string(step) + "): " + detail;
	for (char &c : line)
		if (c == '\n')
			c = ' ';
	const std::string header = "# niovcheck-fuzz failure: " + line.substr(0, 400) + "\n";
	line += " | replay: " + (keep_going ? std::string("(not written: NIOV_FUZZ_KEEP_GOING)")
					    : replay_command(t, header));
	std::fprintf(stderr, "%s\n", line.c_str());
	std::fflush(stderr);
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
		pl.rules.pin(sc);
	if (!within_budget(sc))
		return -1;
	g_current = &sc;
	const RunOptions opts;
	ModelImpl model;
	const Trace m = trace_scenario(sc, model, opts);
	check_violations(t, sc, m);
	if (!pl.impl || m.bind.num_niovs > kMaxPluginNiovs)
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
	g_raw_text = text;
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
	g_current = nullptr;
	g_raw_text = {};
	try {
		if (t == Target::scenario)
			return run_text(data, size);
		Scenario sc = decode_scenario(data, size, t);
		return run_checks(t, sc);
	} catch (const KeepGoing &) {
		return 0;
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
