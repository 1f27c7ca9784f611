// niovcheck: the front door.  Every subcommand exits 0 when clean, 1 on an
// invariant violation or model-vs-plugin difference, 2 on bad input.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "bounded_file.hpp"
#include "commands.hpp"
#include "kernel_build.hpp"
#include "kernel_sanitizer.hpp"
#include "limits.hpp"
#include "plugin.hpp"
#include "rules_in_force.hpp"
#include "usage.hpp"
#include "plugin_load.hpp"

namespace {

// A report that did not reach stdout (a full disk, a closed stdout) is lost
// work, never a silent success: exit 2 with one line.  What the command
// already decided is kept only when the report made it out.
int checked_stdout(const std::string &cmd, int rc) {
	if (rc == niov::cli::kExitBadInput)  // the command said why already
		return rc;
	errno = 0;
	const bool flushed = std::fflush(stdout) == 0;
	if (flushed && !std::ferror(stdout))
		return rc;
	std::fprintf(stderr, "niovcheck %s: the report was not written to stdout: %s\n", cmd.c_str(),
		     errno ? std::strerror(errno) : "write error");
	return niov::cli::kExitBadInput;
}

// `niovcheck CMD --help` (or -h) anywhere after the command.
bool wants_help(int argc, char **argv) {
	for (int i = 2; i < argc; ++i) {
		const std::string a = argv[i];
		if (a == "--help" || a == "-h")
			return true;
	}
	return false;
}

}  // namespace

static int run_command(const std::string &cmd, int argc, char **argv);

int main(int argc, char **argv) {
	if (argc < 2) {
		std::fputs("niovcheck: missing command (try niovcheck help)\n", stderr);
		return niov::cli::kExitBadInput;
	}
	const std::string cmd = argv[1];
	return checked_stdout(cmd, run_command(cmd, argc, argv));
}

static int run_command(const std::string &cmd, int argc, char **argv) {
	using namespace niov::cli;
	if (cmd == "--version" || cmd == "version") {
		std::printf("niovcheck %s (plugin ABI v%d..v%d)\n", NIOV_VERSION, NIOV_IMPL_ABI_MIN_VERSION,
			    NIOV_IMPL_ABI_VERSION);
		return kExitClean;
	}
	if (cmd == "--help" || cmd == "help" || cmd == "-h") {
		std::fputs(overall_usage().c_str(), stdout);
		return kExitClean;
	}
	if (wants_help(argc, argv) && !command_usage(cmd).empty()) {
		std::fputs(command_usage(cmd).c_str(), stdout);
		return kExitClean;
	}
	try {
		// an ASan-built --impl plugin: the command runs again under the ASan runtime
		if (const auto rc = rerun_under_sanitizer_if_needed(argc, argv))
			return *rc;
		Args args(argc, argv, 2);
		if (cmd == "replay")
			return cmd_replay(args, false);
		if (cmd == "explain")
			return cmd_replay(args, true);
		if (cmd == "check")
			return cmd_check(args);
		if (cmd == "simulate")
			return cmd_simulate(args);
		if (cmd == "props")
			return cmd_props(args);
		if (cmd == "corpus")
			return cmd_corpus(args);
		if (cmd == "prove")
			return cmd_prove(args);
		if (cmd == "mutants")
			return cmd_mutants(args);
		if (cmd == "fuzz-campaign")
			return cmd_fuzz_campaign(args);
		if (cmd == "all")
			return cmd_all(args);
		if (cmd == "plugin")
			return cmd_plugin(argc, argv);
		if (cmd == "faults")
			return cmd_faults(args);
		if (cmd == "kernel")
			return cmd_kernel(argc, argv);
		std::fprintf(stderr, "niovcheck: unknown command '%s' (try niovcheck help)\n", cmd.c_str());
		return kExitBadInput;
	} catch (const UsageError &e) {
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::kernel::KernelTreeError &e) {
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::RulesError &e) {
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::PluginLoadFault &e) {
		std::fprintf(stderr, "niovcheck %s: FINDING %s\n", cmd.c_str(), e.what());
		return kExitViolation;
	} catch (const niov::FileError &e) {  // not a regular file, too large, unreadable
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::LimitError &e) {  // a scenario past a documented limit
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::PluginError &e) {
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "niovcheck %s: internal error: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	}
}
