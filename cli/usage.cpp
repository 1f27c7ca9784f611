// Every command's usage, listing every option it takes (`niovcheck CMD
// --help`; cli/tests/help_test.sh checks the lists against the code).
#include "usage.hpp"

#include "engines/engine.hpp"

#include <array>
#include <string>
#include <utility>

#include "config.hpp"
#include "rules_in_force.hpp"

namespace niov::cli {

namespace {

// The presets come from the one table of them (model/rules/config.cpp).
std::string rules_lines() {
	std::string presets;
	for (const auto n : preset_names())
		presets += (presets.empty() ? "" : "|") + std::string(n);
	return "  --rules " + presets + "\n" +
	       "                         the rules to judge by (default: what the plugin declares)\n"
	       "  --policy KEY=VALUE     one policy on top of them (repeatable; model/RULES.md)\n";
}

struct Entry {
	const char *cmd, *summary, *usage;
};

constexpr std::array<Entry, 15> kCommands{{
	{"replay", "run a scenario through the model (and a plugin)",
	 "usage: niovcheck replay FILE [--impl PATH] [--rules P] [--policy K=V]... [--json] [--verbose]\n"
	 "  --verbose              every frag, skb and step (repeats are summarized otherwise)\n"
	 "  --impl PATH            a plugin (.so) to run beside the model and compare\n"
	 "  --json                 the report as JSON (schema niovcheck-replay/1)\n"
	 "%RULES%"
	 "  --rules/--policy pin the scenario to those rules (a printed replay command does);\n"
	 "  without them the file's own rules run.  Exit 0 when the run comes out as the\n"
	 "  file's expect lines say (as check judges it), 1 otherwise, 2 bad input.\n"},
	{"explain", "the same, saying why each size and frag came out",
	 "usage: niovcheck explain FILE [--impl PATH] [--rules P] [--policy K=V]... [--json] [--verbose]\n"
	 "  --impl PATH            a plugin: its answers beside the model's where they differ\n"
	 "  --json                 as JSON (schema niovcheck-explain/1)\n"
	 "%RULES%"},
	{"check", "run scenario files/folders, print a verdict table",
	 "usage: niovcheck check PATH... [--impl PATH] [--rules P] [--policy K=V]... [--all-rules] [--json]\n"
	 "  --impl PATH            a plugin; only the scenarios of its rules run (the rest are counted)\n"
	 "  --all-rules            run every scenario, each under its own rules\n"
	 "  --json                 schema niovcheck-check/1\n"
	 "%RULES%"},
	{"simulate", "frags per skb over every start offset (the seed 000 tables)",
	 "usage: niovcheck simulate [--page-shift S] [--niov-size N] [--device D] [--rules P]\n"
	 "                          [--size-goal N | --big-tcp] [--max-skb-frags N] [--svg FILE] [--json] [--judge]\n"
	 "  --page-shift 12|14|16  --niov-size N (a power of two, PAGE_SIZE..2M)  --device none|mlx5|gve|fbnic|bnxt\n"
	 "  --rules P              %PRESETS%\n"
	 "  --size-goal N          --big-tcp (522728)   --max-skb-frags 17..45\n"
	 "  --svg FILE             the curves as SVG    --json  schema niovcheck-simulate/1\n"
	 "  --judge                exit 1 when a row shows invariant violations (default: exit 0, a table)\n"},
	{"props", "the property checks (RapidCheck)",
	 "usage: niovcheck props [--impl PATH] [--rules P] [--policy K=V]... [--property NAME] [--cases N] [--seed S] [--json]\n"
	 "  --impl PATH            the plugin (default: each kernel-shaped plugin for its preset)\n"
	 "  --property NAME        one property (an invariant id)\n"
	 "  --cases N              cases per property (default 10000, $NIOV_PROPS_CASES)\n"
	 "  --seed S               the run's seed ($NIOV_PROPS_SEED)\n"
	 "  --json                 schema niovcheck-props/1\n"
	 "%RULES%"},
	{"corpus", "convert between scenario files and fuzz inputs",
	 "usage: niovcheck corpus encode SCENARIO OUT_BIN [--target T]\n"
	 "       niovcheck corpus decode IN_BIN OUT_SCENARIO [--target T] [--impl PATH] [--rules P] [--policy K=V]...\n"
	 "  --target bind|send|config|scenario   the fuzz target (default send)\n"
	 "  --impl PATH            decode: pin the scenario to the plugin's rules, as the fuzz run did\n"
	 "%RULES%"},
	{"prove", "Z3 proofs of the invariants",
	 "usage: niovcheck prove [--lemma ID]... [--rules P|all] [--policy K=V]... [--impl PATH] [--json]\n"
	 "                       [--matrix] [--enumerate] [--if-changed] [--report FILE] [--timeout-ms N] [--jobs N]\n"
	 "                       [--smt2-dir DIR] [--cex-dir DIR] [--promote DIR] [--source-dir DIR] | prove --list\n"
	 "  --lemma ID             a lemma, a family or an unsound check (repeatable; --list shows them)\n"
	 "  --rules P|all          the preset (default tx-autosize), or all of them\n"
	 "  --policy K=V           prove under a rule change too (repeatable)\n"
	 "  --impl PATH            the rules a plugin declares\n"
	 "  --matrix               the soundness matrix of the seed 000 patches\n"
	 "  --enumerate            compare with exhaustive enumeration on a reduced domain\n"
	 "  --if-changed           skip when the rules' fingerprint matches the last passing report\n"
	 "  --report FILE          where the report is kept (default build/prove-report.json)\n"
	 "  --timeout-ms N         per query (default 20000)   --jobs N  solver threads (default 2)\n"
	 "  --smt2-dir DIR         export every query          --cex-dir DIR  counterexamples (default a new\n"
	 "                         folder per run under build/prove-cex/)\n"
	 "  --promote DIR          copy counterexample scenarios there   --source-dir DIR  the tree to fingerprint\n"
	 "  --list                 the lemma catalogue   --json  schema niovcheck-prove/1\n"},
	{"mutants", "every broken variant against every engine (the bug scoreboard)",
	 "usage: niovcheck mutants [--variant NAME] [--impl PATH]... [--variants-dir DIR] [--engines a,b]\n"
	 "                         [--rules P] [--policy K=V]... [--json] [--cases N] [--seed S]\n"
	 "                         [--fuzz-seconds N] [--proof-timeout-ms N] [--fuzz-build DIR] [--failure-dir DIR]\n"
	 "                         [--plugins LIST] [--source-dir DIR]\n"
	 "  --variant NAME         only this variant (its plugin name or its file, e.g. libslip)\n"
	 "  --impl PATH            any plugin as a variant (repeatable; replaces the shipped ones)\n"
	 "  --variants-dir DIR     every .so in DIR as a variant; NAME.rules beside NAME.so gives its\n"
	 "                         rules ('rules P', 'policy K=V' lines) when the command line does not\n"
	 "  --engines a,b          %SCOREBOARD_ENGINES% (default all)\n"
	 "  --cases N  --seed S  --fuzz-seconds N (60)  --proof-timeout-ms N (20000)\n"
	 "  --fuzz-build DIR       the libFuzzer build (default build-fuzz, $NIOV_FUZZ_BUILD)\n"
	 "  --failure-dir DIR      caught cases ($NIOV_FAILURE_DIR)   --plugins LIST  build/lib/niov_plugins.txt\n"
	 "  --source-dir DIR       the repository (corpora/)   --json  schema niovcheck-mutants/1\n"
	 "%RULES%"},
	{"fuzz-campaign", "every libFuzzer target against every plugin (the nightly campaign)",
	 "usage: niovcheck fuzz-campaign --impl PATH... [--targets \"bind send config scenario\"] [--time S]\n"
	 "                               [--unit-timeout S] [--jobs N] [--sanitize asan|plain] [--out DIR]\n"
	 "                               [--fuzz-build DIR] [--source-dir DIR] [--dry-run]\n"
	 "  --impl PATH            a plugin that should show no finding (repeatable)\n"
	 "  --time S               per target and plugin (default 120)   --unit-timeout S  per input (10)\n"
	 "  --jobs N               pairs side by side (default 1)        --out DIR  (default ./fuzz-plugins)\n"
	 "  --sanitize asan|plain  the ASan + UBSan targets or the _nosan ones\n"
	 "  --fuzz-build DIR       the libFuzzer build (default build-fuzz, $NIOV_FUZZ_BUILD)\n"
	 "  --dry-run              print the command lines only\n"
	 "  exit 0 no finding, 1 a finding (a timeout that 3 replays do not repeat is not one), 2 bad input\n"},
	{"all", "every engine on one plugin or kernel tree, one verdict",
	 "usage: niovcheck all (--impl PATH | --kernel DIR) [--rules P] [--policy K=V]... [--budget presubmit|nightly]\n"
	 "                     [--json | --tap | --summary] [--junit FILE] [--engines a,b] [--cases N] [--fuzz-seconds N]\n"
	 "                     [--proof-timeout-ms N] [--jobs N] [--seed S] [--no-build-fuzz] [--fuzz-build DIR] [--no-cache] [--asan]\n"
	 "                     [--work-dir DIR] [--source-dir DIR] [--op-timeout S] [--quiet]\n"
	 "  --impl PATH            the plugin       --kernel DIR  a kernel tree (built with kernel build)\n"
	 "  --budget B             presubmit (1000 cases, 8 s per fuzz target) or nightly (20000, 600 s)\n"
	 "  --json                 schema niovcheck-all/1   --tap  KTAP v1   --junit FILE  JUnit XML\n"
	 "  --summary              plain text for a mail: the verdict in 72 columns\n"
	 "  --quiet                no progress on stderr (on a terminal one line per running engine, updated\n"
	 "                         in place; elsewhere a line when each engine starts and ends)\n"
	 "  --engines a,b          %ENGINES% (default all)\n"
	 "  --cases N  --fuzz-seconds N  --proof-timeout-ms N   override the budget\n"
	 "  --jobs N               fuzz targets side by side (default: the machine's cores)\n"
	 "  --seed S               every engine's seed (default 1)\n"
	 "  --no-build-fuzz        do not build the libFuzzer targets when none are found\n"
	 "  --no-cache             prove again even when a passing result for the same rules is kept\n"
	 "  --asan                 with --kernel: every engine on the tree's ASan + UBSan build\n"
	 "  --fuzz-build DIR       where they are (default build-fuzz)\n"
	 "  --work-dir DIR         the run's files: a new or empty folder, or one an earlier run made\n"
	 "                         (default ./niovcheck-failures/all-<plugin>)\n"
	 "  --op-timeout S         a plugin call that does not return in S s is a hang (default 10,\n"
	 "                         $NIOV_OP_TIMEOUT)\n"
	 "  --source-dir DIR       the repository (corpora/)\n"
	 "%RULES%"
	 "  Exit 0 clean, 1 a finding, 2 bad input; SIGINT/SIGTERM/SIGHUP stop every engine and\n"
	 "  exit 128 + the signal after the report of what finished.\n"},
	{"plugin", "build a plugin from a C file anywhere",
	 "usage: niovcheck plugin build FILE.c [-o PATH] [--asan] [--cc COMPILER]\n"
	 "  -o PATH                the plugin (default ./lib<stem>.so); its path is printed\n"
	 "  --asan                 ASan + UBSan; niovcheck preloads the runtime when --impl names it\n"
	 "  --cc COMPILER          default $CC, else gcc\n"},
	{"faults", "fail each allocation, dma-buf and queue step of the binds in turn",
	 "usage: niovcheck faults --impl PATH [--rules P] [--policy K=V]... [FILES|DIRS...] [--json]\n"
	 "  --impl PATH            a plugin with fault injection (NIOV_CAP_FAULTS), e.g. one from kernel build\n"
	 "%RULES%"
	 "  FILES|DIRS             the scenarios whose binds are swept (default corpora/scenarios)\n"
	 "  --json                 the sweep as JSON\n"},
	{"kernel", "a plugin from a kernel tree's own code",
	 "usage: niovcheck kernel check DIR [all's options]    (= niovcheck all --kernel DIR)\n"
	 "       niovcheck kernel build DIR [-o PATH] [--asan] [--coverage] [--force] [--cache DIR] | kernel probe DIR\n"
	 "       niovcheck kernel series BASE (PATCH... | --mbox FILE | --range A..B) [all's options] [--no-coverage]\n"
	 "  check                  every engine on the tree's code under its era's rules, one verdict\n"
	 "  -o PATH                copy the plugin there   --asan  ASan + UBSan\n"
	 "  --coverage             gcov counters in the tree's code (run it with flush.so, beside it, preloaded)\n"
	 "  --force                rebuild even when cached   --cache DIR  the cache (default ~/.cache/niovcheck)\n"
	 "  series                 each patch of a series checked on the base and the patches before it: the\n"
	 "                         findings each brings in or fixes, the first bad patch, which added lines\n"
	 "                         the engines ran; BASE a tree (--range: a git repository, A the base)\n"
	 "  --mbox FILE            the patches of one mbox (b4 am): cover letter and replies skipped\n"
	 "  --range A..B           the commits of A..B, read with git; the repository is never changed\n"
	 "  --no-coverage          skip the --coverage build and run of each step\n"},
	{"help", "this list", "usage: niovcheck help | niovcheck COMMAND --help\n"},
	{"version", "the version", "usage: niovcheck --version\n"},
}};

std::string expand(const char *text) {
	std::string s = text;
	for (const auto &[key, value] : {std::pair<std::string, std::string>{"%RULES%", rules_lines()},
					 {"%PRESETS%", preset_list()},
					 {"%ENGINES%", engine_list()},
					 {"%SCOREBOARD_ENGINES%", engine_list(true)}})
		for (size_t at; (at = s.find(key)) != std::string::npos;)
			s.replace(at, key.size(), value);
	return s;
}

}  // namespace

std::string command_usage(const std::string &cmd) {
	for (const auto &e : kCommands)
		if (cmd == e.cmd)
			return expand(e.usage);
	return "";
}

std::string overall_usage() {
	std::string s = "usage: niovcheck COMMAND [options]   (niovcheck COMMAND --help lists every option)\n";
	for (const auto &e : kCommands) {
		const std::string cmd = e.cmd;  // a long name gets one space, not a negative pad
		s += "  " + cmd + std::string(cmd.size() < 10 ? 10 - cmd.size() : 1, ' ') + e.summary + "\n";
	}
	s += "Exit codes: 0 clean, 1 a violation, difference or finding, 2 bad input.\n";
	return s;
}

}  // namespace niov::cli
