// `niovcheck kernel check|build|probe DIR`: the code of a kernel tree, checked.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kernel_build.hpp"

namespace niov::cli {

namespace {

int kernel_probe(Args &args) {
	auto pos = args.positional();
	args.done();
	if (pos.size() != 1) throw UsageError("kernel probe takes one kernel tree");
	const auto era = kernel::probe_era(pos[0]);
	const KernelRules rules = kernel_rules(era);
	std::printf("era %s: %s\nrules %s%s\nbind net_devmem_bind_dmabuf(%s)\nfill %s\n", era.letter.c_str(),
		    era.name.c_str(), rules.preset.c_str(), rules.policy.empty() ? "" : (" + " + rules.policy).c_str(),
		    era.bind_signature.c_str(),
		    era.has_fill ? "zerocopy_fill_skb_from_devmem() from net/core/datagram.c" : "none");
	for (const auto &l : rules.lines) std::printf("choice %s\n", l.c_str());
	for (const auto &n : era.choices.notes) std::printf("note %s\n", n.c_str());
	for (const auto &n : rules.notes) std::printf("note %s\n", n.c_str());
	for (const auto &a : rules.ambiguous) std::printf("ambiguous %s\n", a.c_str());
	for (const auto &f : era.features) std::printf("feature %s\n", f.c_str());
	if (!rules.ambiguous.empty())
		std::printf("the code does not say plainly which rules it follows: kernel check needs --rules/--policy\n");
	return kExitClean;
}

int kernel_build_cmd(Args &args) {
	KernelBuildOptions opt;
	opt.asan = args.flag("asan");
	opt.force = args.flag("force");
	opt.coverage = args.flag("coverage");
	opt.output = args.option("output", "");
	opt.cache_dir = args.option("cache", "");
	auto pos = args.positional();
	args.done();
	if (pos.size() != 1) throw UsageError("kernel build takes one kernel tree");
	const KernelBuild b = kernel_build(pos[0], opt);
	std::printf("plugin %s\nera %s: %s\nrules %s\n%s%s\n", b.plugin.c_str(), b.era.letter.c_str(),
		    b.era.name.c_str(), b.rules.c_str(), b.cached ? "cached " : "built ",
		    b.asan ? "with ASan+UBSan" : b.coverage ? "with gcov counters (preload flush.so beside it)" : "plain");
	return kExitClean;
}

}  // namespace

int cmd_kernel(int argc, char **argv) {
	if (argc < 3) throw UsageError("kernel needs a subcommand: check DIR | build DIR [-o PATH] [--asan] | probe DIR | series BASE PATCH...");
	const std::string sub = argv[2];
	// -o is the one short option niovcheck takes (as a compiler would)
	static char output[] = "--output";
	std::vector<char *> v(argv, argv + argc);
	for (auto &a : v)
		if (std::string(a) == "-o") a = output;
	if (sub == "check") {
		// `all --kernel DIR`, by its own name: every engine on the tree's code
		// under the rules of its era, one verdict.
		if (argc < 4 || argv[3][0] == '-')
			throw UsageError("kernel check takes a kernel tree first: kernel check DIR [all's options]");
		static char all[] = "all", kernel_opt[] = "--kernel";
		std::vector<char *> w{argv[0], all, kernel_opt};
		w.insert(w.end(), argv + 3, argv + argc);
		Args args(static_cast<int>(w.size()), w.data(), 2);
		return cmd_all(args);
	}
	Args args(argc, v.data(), 3);
	if (sub == "build")
		return kernel_build_cmd(args);
	if (sub == "probe")
		return kernel_probe(args);
	if (sub == "series")
		return cmd_kernel_series(args);
	throw UsageError("unknown kernel subcommand '" + sub + "' (check, build, probe, series)");
}

}  // namespace niov::cli
