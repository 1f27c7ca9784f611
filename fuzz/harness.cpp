#include "harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "breadcrumb.hpp"
#include "budget.hpp"
#include "crash_report.hpp"
#include "findings.hpp"
#include "limits.hpp"
#include "lockstep_impl.hpp"
#include "plugin.hpp"
#include "replay_command.hpp"
#include "report.hpp"
#include "stdout_trap.hpp"
#include "whole_file.hpp"

namespace niov::fuzz {

namespace {

const char *g_input_path = nullptr;
Target g_target = Target::send;	 // the target running, for reports from exit() and signal paths
// decode_only stores here so the optimizer cannot drop the decoding.
volatile size_t g_sink;
// The case being checked, for the failure file: the scenario once there is
// one, the raw text while the scenario target parses.
const Scenario *g_current = nullptr;
std::string_view g_raw_text;

void report_fault(const Breadcrumb &b);

struct PluginState {
	std::unique_ptr<PluginImpl> impl;
	std::string path;  // absolute, for replay commands
	RulesInForce rules;
};

// Set once plugin() has returned.  The fault reporter runs during the load
// too (a plugin that exits in niov_impl_get): it must read this, never call
// plugin(), or it waits forever on plugin()'s own static initialisation.
const PluginState *g_loaded = nullptr;

// Loaded once per process; a plugin that cannot load, or whose rules are not
// known, ends the run at once rather than fuzzing the model alone, or the
// wrong rules, by mistake.
PluginState &plugin() {
	static PluginState st = [] {
		PluginState s;
		const char *p = std::getenv("NIOV_IMPL");
		if (!p || !*p)
			return s;
		// Before the load: niov_impl_get is the plugin's first call.
		set_fault_reporter(report_fault);
		crash_report_install(std::string(name(g_target)));
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
		crash_report_uninstall();  // until the first input: see crash_report.hpp
		return s;
	}();
	g_loaded = &st;
	return st;
}

// The replay command's --impl and rules flags: those of the loaded plugin,
// or, while it is still loading, its path alone.
std::string impl_flags() {
	if (g_loaded)
		return g_loaded->impl ? " --impl " + shell_quote(g_loaded->path) + " " + g_loaded->rules.flags() : "";
	const char *p = std::getenv("NIOV_IMPL");
	if (!p || !*p)
		return "";
	std::error_code ec;
	return " --impl " + shell_quote(std::filesystem::absolute(p, ec).string());
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
	return write_whole_file(file.string(), text).empty() ? file.string() : std::string();
}

// One command that runs exactly what failed: the case as a scenario file
// with the rules in force written into it and named again by flags.
std::string replay_command(Target t, const std::string &header) {
	const std::string impl = impl_flags();
	std::string file;
	if (g_current)
		file = write_failure_file(t, header + serialize_scenario(*g_current), ".scn");
	else if (g_input_path)  // the parser failed on this very file
		file = std::filesystem::absolute(g_input_path).string();
	else if (!g_raw_text.empty())
		file = write_failure_file(t, std::string(g_raw_text), ".scn");
	else if (!g_loaded)  // the plugin failed while loading: any case loads it again
		file = write_failure_file(t, header + serialize_scenario(Scenario{}), ".scn");
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

// The replay command for the signal path, fixed before the input runs (a
// handler cannot write files): the input is the one being replayed, or the
// crash file libFuzzer saves and names right after this line.
std::string replay_hint(Target t) {
	const std::string impl = impl_flags();
	const std::string input = g_input_path ? shell_quote(std::filesystem::absolute(g_input_path).string())
					       : std::string("<the crash-* file libFuzzer saves next>");
	const std::string cli = shell_quote(cli_path());
	if (t == Target::scenario)
		return cli + " replay " + input + impl;
	return cli + " corpus decode --target " + std::string(name(t)) + impl + " " + input + " crash.scn && " + cli +
	       " replay crash.scn" + impl;
}

// The breadcrumb's reporter: a plugin called exit() or wrote past its frags.
// The failure line, then abort, so libFuzzer keeps the input as a crash.
void report_fault(const Breadcrumb &b) {
	const std::string header = std::string("# niovcheck-fuzz failure: ") + b.fault_id + "\n";
	std::fprintf(stderr, "niovcheck-fuzz %s: %s (%s, step %u): %s | replay: %s\n",
		     std::string(name(g_target)).c_str(), b.fault_id, b.plugin, b.step, b.fault,
		     replay_command(g_target, header).c_str());
	std::fflush(stderr);
	crash_report_done();
	std::abort();
}

// Set before the first plugin run; release_stdout() ends it.
StdoutTrap &stdout_trap() {
	static StdoutTrap trap;
	return trap;
}

// "S skbs": what a trace's sends filled, for messages.
std::string sends_filled(const Trace &tr) {
	uint64_t skbs = 0;
	for (const auto &op : tr.ops)
		skbs += op.skb_count;
	return std::to_string(skbs) + " skbs";
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
	RunOptions opts;
	// Alone, the model's trace is read for its violations only; beside a
	// plugin's, its sends are compared by digest (a vector per skb was the
	// most allocations of a send input, and allocations are what ASan
	// pays most for).
	const bool with_plugin = pl.impl && plugin_affordable(sc);  // walks the sg table: once
	opts.record_skbs = false;
	opts.digest_skbs = with_plugin;
	opts.explain_bind = false;
	opts.skip_known_findings = true;  // check_violations drops them
	opts.max_frags = opts.max_skbs = kMaxWork;
	opts.rx_sweep_max_niovs = kFuzzRxSweepMaxNiovs;
	if (!with_plugin) {
		ModelImpl model;
		check_violations(t, sc, trace_scenario(sc, model, opts));
		return 0;
	}
	// Beside a plugin the model is not run on its own: it answers every
	// question beside the plugin (LockstepImpl) in the plugin's checked
	// run.  Where an answer differs, the model runs alone, unchecked, and
	// the traces are compared; a difference there runs the model again,
	// checked, to word it (below).
	// The model's run alone, unchecked, first of all where the plugin's
	// fails: a model past the work budget rejects the input (LimitError)
	// whatever the plugin did.
	const auto model_trace = [&] {
		RunOptions unchecked = opts;
		unchecked.check = false;
		ModelImpl model;
		return trace_scenario(sc, model, unchecked);
	};
	StdoutTrap &trap = stdout_trap();
	trap.arm();
	ModelImpl shadow;
	LockstepImpl lockstep(*pl.impl, shadow);
	// The plugin's run with its stdout trapped; a fault or a run past the
	// budget is a finding.
	const auto plugin_trace = [&](Impl &impl, const RunOptions &o) {
		try {
			return trace_scenario(sc, impl, o);
		} catch (const PluginFault &f) {
			std::string ignored;
			trap.take(ignored);
			(void)model_trace();
			fail(t, f.id, pl.path + ", " + f.op, breadcrumb().step, f.what());
		} catch (const LimitError &e) {
			// The model's run stays inside the same budget: a plugin past
			// it built other frags or skbs, a difference, not an input to
			// skip.
			std::string ignored;
			trap.take(ignored);
			const Trace m = model_trace();
			fail(t, "differential", "model vs " + pl.impl->name(), breadcrumb().step,
			     "the plugin's sends built more frags or skbs than the fuzz budget allows (" +
				     std::string(e.what()) + "); the model's filled " + sends_filled(m));
		}
	};
	const auto stdout_clean = [&] {
		std::string head;
		if (const off_t n = trap.take(head))
			fail(t, "plugin.stdout", pl.path, breadcrumb().step,
			     std::to_string(n) + " bytes written to stdout, first: '" + head + "'");
	};
	const Trace i = plugin_trace(lockstep, opts);
	std::optional<Trace> m;
	if (lockstep.diverged())
		m = model_trace();
	// The leak check costs about twenty binds: on the first bound input and
	// every 4096th after it.
	static uint64_t bound_inputs = 0;
	if (i.bind.err == 0 && bound_inputs++ % 4096 == 0)
		if (const auto leak = pl.impl->leak_check())
			fail(t, "plugin.leak", pl.path, 0,
			     "leak of " + std::to_string(leak->bytes) + " bytes over " + std::to_string(leak->binds) +
				     " bind/unbind cycles of this input's bind");
	stdout_clean();
	check_violations(t, sc, i);
	if (!m)
		return 0;  // every answer the same: so is every output
	auto diffs = diff_traces(*m, i);
	if (!diffs.empty()) {
		// Compared by digests: worded again from runs that keep every frag,
		// to name the first frag that differs.
		RunOptions full = opts;
		full.record_skbs = true;
		ModelImpl again;
		const Trace m2 = trace_scenario(sc, again, full);
		check_violations(t, sc, m2);  // the model's own, first
		const Trace i2 = plugin_trace(*pl.impl, full);
		stdout_clean();
		if (auto worded = diff_traces(m2, i2); !worded.empty())
			diffs = std::move(worded);
	}
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

// The plugin loads here, before fuzzing starts: one that cannot load ends
// the run at once.  The crash report's replay hint is set with its handlers
// at the first input (run_target).
void initialize(Target t) {
	g_target = t;
	(void)plugin();
}

int run_target(Target t, const uint8_t *data, size_t size) {
	g_current = nullptr;
	g_raw_text = {};
	g_target = t;
	static const bool reporting = [t] {
		if (plugin().impl) {
			crash_report_install(std::string(name(t)));
			crash_report_replay(replay_hint(t));
		}
		return true;
	}();
	(void)reporting;
	try {
		if (t == Target::scenario)
			return run_text(data, size);
		static ScenarioDecoder decoder;
		return run_checks(t, decoder.decode(data, size, t));
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
	static ScenarioDecoder decoder;
	const Scenario &sc = decoder.decode(data, size, t);
	g_sink = sc.ops.size() + sc.segs.size();
	return 0;
}

void release_stdout() { stdout_trap().release(); }

void set_input_path(const char *path) {
	g_input_path = path;
	if (plugin().impl)
		crash_report_replay(replay_hint(g_target));
}

}  // namespace niov::fuzz

// LeakSanitizer stays off in every fuzz build unless ASAN_OPTIONS turns it on:
// the plugins emulate a leak the kernel has (a gen_pool with niovs still out
// is not destroyed at unbind), so a correct plugin would be reported on
// nearly every RX input.  Leaks are judged by the suite's resource counters
// (res.no_leak), the same scoping as the ctest ASan run; this puts it in the
// binaries, not in each script that starts them.  libFuzzer still runs an
// input a second time whenever it allocated more than it freed (its own
// -detect_leaks), so storage kept between inputs must come back to the
// stash it was taken from: a refused bind that dropped its segment table
// made a fifth of the ASan inputs run twice (structures_test holds it).
//
// The quarantine (freed memory held poisoned before reuse) is 16 MiB, not
// ASan's 256: an input frees a few MiB at most (budget.hpp caps the plugin's
// tables at 2^14 niovs and the work at 2^12 frags), so a use after free
// within an input, or of a plugin's state freed hundreds of inputs earlier,
// is still reported.  The default one cycled 400 MB of the heap through the
// caches and page faults: send with the net-next plugin took 0.71x the CPU
// for the same inputs with 16 MiB (farm-bench, 60,000 runs).
extern "C" const char *__asan_default_options() { return "detect_leaks=0:quarantine_size_mb=16"; }
