#include "runner.hpp"

#include <malloc.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/Property.h>
#include <rapidcheck/detail/TestListener.h>

#include "replay_command.hpp"
#include "show.hpp"
#include "whole_file.hpp"

namespace niov::props {

namespace {

// RapidCheck's default listener prints a reproduce banner at exit; the
// runner prints its own, per failure.
class QuietListener final : public rc::detail::TestListener {
public:
	void onTestCaseFinished(const rc::detail::CaseDescription &) override {}
	void onShrinkTried(const rc::detail::CaseDescription &, bool) override {}
	void onTestFinished(const rc::detail::TestMetadata &, const rc::detail::TestResult &) override {}
};

double thread_cpu_seconds() {
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool env_number(const char *name, uint64_t &out, std::string &error) {
	const char *v = std::getenv(name);
	if (!v || !*v)
		return true;
	if (!parse_number(v, out)) {
		error = fmt::format("${}: '{}' is not a number", name, v);
		return false;
	}
	return true;
}

std::string comment(const std::string &text) {
	std::string out;
	std::istringstream is(text);
	std::string line;
	while (std::getline(is, line))
		out += line.empty() ? "#\n" : "# " + line + "\n";
	return out;
}

// The case as a scenario file, whole or not at all: "" or why not.
std::string write_failure(const Outcome &o, uint64_t seed) {
	std::ostringstream f;
	f << "# niovcheck property failure: " << o.name << " (seed " << fmt::format("{:#x}", seed)
	  << ", " << o.cases << " cases)\n"
	  << comment(o.description) << "# RC_PARAMS=\"" << o.reproduce << "\"\n"
	  << "# " << o.replay << "\n"
	  << serialize_scenario(o.failed->scenario);
	if (!o.failed->scenario.name.empty())
		f << "# generated as " << o.failed->scenario.name << "\n";
	return write_whole_file(o.scenario_file, f.str());
}

}  // namespace

std::string failure_path(const std::string &name, const RunParams &rp) {
	namespace fs = std::filesystem;
	std::string dir = rp.failure_dir;
	if (dir.empty()) {
		const char *e = std::getenv("NIOV_FAILURE_DIR");
		dir = e && *e ? e : "niovcheck-failures";
	}
	std::error_code ec;
	fs::create_directories(dir, ec);
	return (fs::absolute(dir, ec) / fmt::format("{}{}{}-{:x}.scn", name, rp.tag.empty() ? "" : "-", rp.tag, rp.seed))
		.string();
}

bool params_from_env(RunParams &rp, std::string &error) {
	if (!env_number("NIOV_PROPS_CASES", rp.cases, error) || !env_number("NIOV_PROPS_SEED", rp.seed, error))
		return false;
	if (rp.cases == 0 || rp.cases > INT32_MAX) {
		error = "$NIOV_PROPS_CASES out of range";
		return false;
	}
	// RapidCheck would print a malformed RC_PARAMS and exit 1; say it here.
	if (const char *e = std::getenv("RC_PARAMS"); e && *e) {
		try {
			rc::detail::configFromString(e, rc::detail::Configuration{});
		} catch (const rc::detail::ConfigurationException &x) {
			error = std::string("$RC_PARAMS: ") + x.what();
			return false;
		}
	}
	if (const char *e = std::getenv("NIOV_FAILURE_DIR"); e && *e)
		rp.failure_dir = e;
	if (const char *e = std::getenv("NIOV_CLI"); e && *e)
		rp.niovcheck = e;
	return true;
}

uint64_t property_seed(uint64_t seed, std::string_view name) {
	uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
	for (char c : name)
		h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
	return seed ^ h;
}

// Cases allocate and free a few MiB each (skb reports, plugin niov tables);
// with glibc's defaults the heap top is trimmed after every case and the
// next one page-faults it back in, which costs more than the case itself.
// Keep freed memory instead.
void keep_freed_memory() {
	static const bool done = [] {
		mallopt(M_TRIM_THRESHOLD, 512 << 20);
		mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
		return true;
	}();
	(void)done;
}

namespace {

// RapidCheck prints "Using configuration: seed=N" when it first reads
// RC_PARAMS.  Every property here runs with its own seed (property_seed), so
// that global seed would only mislead someone trying to replay: read the
// configuration once with std::cerr silenced.
const rc::detail::Configuration &quiet_configuration() {
	static const rc::detail::Configuration &config = [] () -> const rc::detail::Configuration & {
		std::streambuf *err = std::cerr.rdbuf(nullptr);
		const auto &c = rc::detail::configuration();
		std::cerr.rdbuf(err);
		return c;
	}();
	return config;
}

}  // namespace

Outcome run_property(const Property &p, const Target &t, const RunParams &rp) {
	using namespace rc::detail;
	keep_freed_memory();
	Outcome o;
	o.name = p.name;
	o.not_run = not_runnable(p, t);
	if (!o.not_run.empty())
		return o;
	TestMetadata md;
	md.id = "niovcheck/" + p.name;
	md.description = p.name;
	TestParams params;
	params.seed = property_seed(rp.seed, p.name);
	params.maxSuccess = static_cast<int>(rp.cases);
	params.maxSize = rp.max_size;
	params.maxDiscardRatio = 10;

	std::optional<FailedCase> last_failure;
	auto testable = [&p, &t, &last_failure] {
		unwound_case().reset();
		try {
			p.body(t);
		} catch (const CaseResult &r) {
			if (r.type == CaseResult::Type::Failure)
				last_failure = unwound_case();
			throw;
		} catch (...) {
			last_failure = unwound_case();
			throw;
		}
	};
	QuietListener quiet;
	const auto start = std::chrono::steady_clock::now();
	const double cpu_start = thread_cpu_seconds();
	// An RC_PARAMS reproduce string for this property replays only its case.
	const auto result = checkProperty(toProperty(testable), md, params, quiet, quiet_configuration().reproduce);
	o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	o.cpu_seconds = thread_cpu_seconds() - cpu_start;
	if (auto &slow = slowest_case(); slow) {
		fmt::print(stderr, "{}: slowest case {:.1f} ms:\n{}", p.name, slow->seconds * 1e3,
			   serialize_scenario(slow->scenario));
		slow.reset();
	}

	if (result.is<SuccessResult>()) {
		o.passed = true;
		o.cases = static_cast<uint64_t>(result.get<SuccessResult>().numSuccess);
		return o;
	}
	if (result.is<GaveUpResult>()) {
		const auto &gave_up = result.get<GaveUpResult>();
		o.cases = static_cast<uint64_t>(gave_up.numSuccess);
		o.message = "gave up: " + gave_up.description + " (the generators discard too much)";
		return o;
	}
	if (result.is<Error>()) {
		o.message = "error: " + result.get<Error>().description;
		return o;
	}
	const auto &fail = result.get<FailureResult>();
	o.cases = static_cast<uint64_t>(fail.numSuccess) + 1;
	// RapidCheck's description is "file:line:\nASSERTION\n\nmessage";
	// the message is what a person reads first.
	const size_t para = fail.description.rfind("\n\n");
	o.description = para == std::string::npos ? fail.description : fail.description.substr(para + 2);
	{
		std::ostringstream ss;
		printResultMessage(fail, ss);
		o.message = ss.str();
	}
	Configuration c;
	c.reproduce[md.id] = fail.reproduce;
	// Only the reproduce=... key: the case's seed is inside it.
	const std::string all = configToMinimalString(c);
	const size_t at = all.find("reproduce=");
	o.reproduce = at == std::string::npos ? all : all.substr(at, all.find(' ', at) - at);

	// Replay the minimal case alone: the last failing run is exactly it.
	last_failure.reset();
	checkProperty(toProperty(testable), md, params, quiet, {{md.id, fail.reproduce}});
	o.failed = last_failure;
	if (o.failed) {
		o.scenario_file = failure_path(o.name, rp);
		o.replay = replay_command_line(rp.niovcheck, o.scenario_file, o.failed->impl_path, rp.rules_flags);
		if (const std::string err = write_failure(o, rp.seed); !err.empty()) {
			// No replay command names a file that is not there: the
			// seed's RC_PARAMS still reproduce the case.
			o.message += "\n(could not write the case to " + o.scenario_file + ": " + err + ")";
			o.scenario_file.clear();
			o.replay.clear();
		}
	}
	return o;
}

std::string property_for(const std::string &must_catch) {
	return must_catch == "difference" ? "diff.model_vs_impl" : must_catch;
}

std::vector<const Property *> properties_from(const std::string &first) {
	std::vector<const Property *> order;
	if (const Property *p = find_property(first))
		order.push_back(p);
	for (const auto &p : all_properties())
		if (p.name != first)
			order.push_back(&p);
	return order;
}

std::optional<Outcome> first_failure(const Target &t, const std::string &first, const RunParams &rp,
				     double &seconds) {
	seconds = 0;
	for (const Property *p : properties_from(first)) {
		Outcome o = run_property(*p, t, rp);
		seconds += o.seconds;
		if (!o.passed && o.not_run.empty())
			return o;
	}
	return std::nullopt;
}

std::string failure_text(const Outcome &o) {
	std::string s = fmt::format("property {} FAILED after {} cases:\n{}\n", o.name, o.cases, o.message);
	if (!o.reproduce.empty())
		s += fmt::format("  reproduce: RC_PARAMS=\"{}\" (same seed and --impl)\n", o.reproduce);
	if (!o.scenario_file.empty())
		s += fmt::format("  scenario:  {}\n  replay:    {}\n", o.scenario_file, o.replay);
	else if (!o.passed && o.reproduce.empty())
		s += "  (no case to write)\n";
	return s;
}

}  // namespace niov::props
