// niovcheck: the front door.  Every subcommand exits 0 when clean, 1 on an
// invariant violation or model-vs-plugin difference, 2 on bad input.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"
#include "kernel_build.hpp"
#include "kernel_sanitizer.hpp"
#include "limits.hpp"
#include "plugin.hpp"

namespace {

const char kUsage[] =
	"usage: niovcheck COMMAND [options]\n"
	"  replay FILE [--impl PATH] [--json] [--verbose]\n"
	"                                       run a scenario through the model (and a plugin);\n"
	"                                       repeats are summarized unless --verbose or --json\n"
	"  explain FILE [--impl PATH] [--verbose]  the same, saying why each size and frag came out\n"
	"  check PATH... [--impl PATH] [--json] run scenario files/folders, print a verdict table\n"
	"  simulate [--page-shift S] [--niov-size N] [--device D] [--rules P] [--size-goal N|--big-tcp]\n"
	"           [--max-skb-frags N] [--svg FILE] [--json]   frags per skb over every start offset\n"
	"  props [--impl PATH] [--cases N] [--seed S] [--json]  the property checks (RapidCheck)\n"
	"  corpus encode|decode IN OUT          convert between scenario files and fuzz inputs\n"
	"  prove [--lemma ID] [--rules P] [--matrix] [--json]   Z3 proofs of the invariants\n"
	"  mutants [--variant NAME] [--engines a,b] [--json]    every broken variant against every engine\n"
	"  faults --impl PATH [FILES...] [--json]  fail each allocation/dma-buf/queue step of the binds in turn\n"
	"  kernel build DIR [-o PATH] [--asan] | probe DIR    a plugin from a kernel tree's own code\n";

}  // namespace

int main(int argc, char **argv) {
	using namespace niov::cli;
	if (argc < 2) {
		std::fputs("niovcheck: missing command (try niovcheck help)\n", stderr);
		return kExitBadInput;
	}
	const std::string cmd = argv[1];
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
		if (cmd == "faults")
			return cmd_faults(args);
		if (cmd == "kernel")
			return cmd_kernel(argc, argv);
		if (cmd == "--help" || cmd == "help" || cmd == "-h") {
			std::fputs(kUsage, stdout);
			return kExitClean;
		}
		std::fprintf(stderr, "niovcheck: unknown command '%s' (try niovcheck help)\n", cmd.c_str());
		return kExitBadInput;
	} catch (const UsageError &e) {
		std::fprintf(stderr, "niovcheck %s: %s\n", cmd.c_str(), e.what());
		return kExitBadInput;
	} catch (const niov::kernel::KernelTreeError &e) {
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
