#include "kernel_build.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "c_source.hpp"
#include "../../plugins/include/niov_impl.h"
#include "kernel_cache.hpp"
#include "kernel_plan.hpp"

namespace fs = std::filesystem;
using niov::kernel::KernelTreeError;
using niov::kernel::read_file_or_empty;

namespace niov::cli {

namespace {

std::string source_dir() {
	if (const char *s = std::getenv("NIOV_SOURCE_DIR")) return s;
	return NIOV_SOURCE_DIR;
}

// Real headers: the tree's own, symlinked into the build's include dir.
// netmem.h and memory_provider.h define the structures devmem and the
// runtime share; genalloc.h the pool genalloc.c and devmem.c share.
// Everything else the files include is shadowed by an empty file.
// A tree from before the memory-provider hooks has no memory_provider.h.
enum class Needed { always, with_genalloc, with_mp_ops };
struct RealHeader {
	const char *path;
	Needed when;
};
const RealHeader kRealHeaders[] = {
	{"include/net/netmem.h", Needed::always},
	{"include/net/page_pool/memory_provider.h", Needed::with_mp_ops},
	{"include/linux/genalloc.h", Needed::with_genalloc},
};

const char *const kRuntimeSources[] = {"state.c", "alloc.c", "bitmap.c", "xarray.c", "dmabuf.c", "netdev.c"};
// The runtime's files built with libc headers instead of the shim.
const char *const kLibcSources[] = {"libc_bridge.c", "kprintf.c"};

struct Fnv {
	uint64_t h = 1469598103934665603ULL;
	void add(const std::string &s) {
		for (unsigned char c : s) { h ^= c; h *= 1099511628211ULL; }
		h ^= 0xff; h *= 1099511628211ULL;
	}
	std::string hex() const {
		char b[17];
		std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
		return b;
	}
};

std::vector<std::string> includes_of(const std::string &text, char open) {
	std::vector<std::string> out;
	const char close = open == '<' ? '>' : '"';
	std::size_t pos = 0;
	while ((pos = text.find("#include", pos)) != std::string::npos) {
		std::size_t a = text.find_first_not_of(" \t", pos + 8);
		pos += 8;
		if (a == std::string::npos || text[a] != open) continue;
		const std::size_t b = text.find(close, a + 1);
		if (b == std::string::npos) continue;
		out.push_back(text.substr(a + 1, b - a - 1));
	}
	return out;
}

void write_tree_file(const fs::path &p, const std::string &text) {
	fs::create_directories(p.parent_path());
	std::ofstream(p, std::ios::binary) << text;
}

// Runs @argv with stdout and stderr appended to @log; its exit status.
int run(const std::vector<std::string> &argv, const fs::path &log) {
	const pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
		setenv("LC_ALL", "C", 1);	// plain quotes in diagnostics, for unknown_field()
		unsetenv("LD_PRELOAD");		// a run under the ASan runtime: not the compiler
		std::vector<char *> a;
		for (const auto &s : argv) a.push_back(const_cast<char *>(s.c_str()));
		a.push_back(nullptr);
		execvp(a[0], a.data());
		_exit(127);
	}
	int st = 0;
	if (waitpid(pid, &st, 0) < 0) return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

std::string first_error(const fs::path &log) {
	std::ifstream in(log);
	std::string line;
	while (std::getline(in, line))
		if (line.find("error") != std::string::npos) return line;
	return "see the log";
}

// A tree that reads a field of a structure the shim stands in for (struct
// net_device, the netlink socket, ...) which the shim does not have: say
// which field and where, in the tree's words, and where such a field goes.
std::optional<std::string> unknown_field(const fs::path &log, const std::string &tree) {
	static const std::regex member(R"(^(.*):(\d+):\d+: error: '?(struct \w+|\w+)'? has no member named '(\w+)')");
	std::ifstream in(log);
	std::smatch m;
	for (std::string line; std::getline(in, line);) {
		if (!std::regex_search(line, m, member)) continue;
		std::string file = m[1].str();
		if (file.rfind(tree + "/", 0) == 0) file = file.substr(tree.size() + 1);
		return file + ":" + m[2].str() + ": the code reads " + m[3].str() + "::" + m[4].str() +
		       ", which kernel mode's shim does not have (add it in kernel/shim/, fed from the run's "
		       "configuration: kernel/README.md, \"Trees drift\")";
	}
	return std::nullopt;
}

}  // namespace

Plan make_plan(const std::string &tree, bool asan, bool coverage, const std::string &cc) {
	Plan p;
	p.tree = tree;
	p.era = kernel::probe_era(tree);
	p.rules = kernel_rules(p.era);
	p.era.defines.push_back("NIOV_K_RULES=\"" + p.rules.preset + "\"");
	if (!p.rules.policy.empty()) p.era.defines.push_back("NIOV_K_POLICY=\"" + p.rules.policy + "\"");
	p.asan = asan;
	p.coverage = coverage;
	p.cc = !cc.empty() ? cc : std::getenv("NIOV_KERNEL_CC") ? std::getenv("NIOV_KERNEL_CC") : "gcc";
	p.cflags = {"-fPIC", "-g", "-O1", "-fno-omit-frame-pointer"};
	// $NIOV_KERNEL_CFLAGS: more flags for every unit (the warning checks of
	// kernel/tests build our fixtures with -Wall -Wextra -Werror this way).
	if (const char *extra = std::getenv("NIOV_KERNEL_CFLAGS")) {
		std::istringstream words(extra);
		for (std::string w; words >> w;) p.cflags.push_back(w);
	}
	if (p.asan) p.cflags.insert(p.cflags.end(), {"-fsanitize=address,undefined", "-fno-sanitize=alignment"});
	p.kernel_cflags = {"-std=gnu11", "-nostdinc", "-ffreestanding", "-fno-strict-aliasing",
			   "-fno-strict-overflow", "-fno-delete-null-pointer-checks", "-fvisibility=hidden",
			   "-Wno-unused-function"};
	// devmem.c and the net/core headers it includes by quotes, transitively
	std::vector<std::string> todo = {"net/core/devmem.c"};
	std::set<std::string> seen;
	while (!todo.empty()) {
		const std::string rel = todo.back();
		todo.pop_back();
		if (!seen.insert(rel).second) continue;
		const std::string text = read_file_or_empty(tree + "/" + rel);
		if (text.empty())
			throw KernelTreeError(tree + ": " + rel + " missing (devmem.c includes it; the build takes it from the tree)");
		p.tree_files.push_back(rel);
		for (const auto &q : includes_of(text, '"')) todo.push_back("net/core/" + q);
	}
	if (p.era.uses_genalloc) p.tree_files.push_back("lib/genalloc.c");
	for (const auto &h : kRealHeaders) {
		if ((h.when == Needed::with_genalloc && !p.era.uses_genalloc) ||
		    (h.when == Needed::with_mp_ops && !p.era.has_mp_ops))
			continue;
		if (!fs::exists(tree + "/" + h.path))
			throw KernelTreeError(tree + ": " + h.path + " missing (the build takes it from the tree)");
		p.real_headers.push_back(h.path);
		p.tree_files.push_back(h.path);
	}
	if (p.era.has_fill) {
		const std::string dg = read_file_or_empty(tree + "/net/core/datagram.c");
		const auto f = kernel::find_definition(dg, "zerocopy_fill_skb_from_devmem");
		p.fill_text = kernel::extract_function(dg, *f, tree + "/net/core/datagram.c");
	}
	return p;
}

namespace {

std::vector<fs::path> our_sources() {
	std::vector<fs::path> out;
	const fs::path k = fs::path(source_dir()) / "kernel";
	for (const char *d : {"shim", "runtime", "adapters", "coverage"})
		for (const auto &e : fs::directory_iterator(k / d)) out.push_back(e.path());
	out.push_back(fs::path(source_dir()) / "plugins/include/niov_impl.h");
	out.push_back(fs::path(source_dir()) / "plugins/include/niov_shim.h");
	out.push_back(fs::path(source_dir()) / "plugins/include/niov_kvocab.h");
	out.push_back(fs::path(source_dir()) / "plugins/shim/niov_shim.c");
	std::sort(out.begin(), out.end());
	return out;
}


// Empty files for every <header> the compiled files and the real headers
// include that is not real: the vocabulary comes from the shim instead.
void make_shadows(const Plan &p, const fs::path &dir) {
	std::set<std::string> want = {"stdint.h"};
	std::vector<std::string> texts;
	for (const auto &f : p.tree_files) texts.push_back(read_file_or_empty(p.tree + "/" + f));
	texts.push_back(p.fill_text);
	for (const auto &t : texts)
		for (const auto &h : includes_of(t, '<')) want.insert(h);
	for (const auto &h : want) {
		bool real = false;
		for (const auto &r : p.real_headers) real |= r == "include/" + h;
		if (!real && h.find("..") == std::string::npos) write_tree_file(dir / "shadow" / h, "");
	}
	for (const auto &r : p.real_headers) {
		const fs::path link = dir / "real" / r;
		fs::create_directories(link.parent_path());
		fs::create_symlink(fs::path(p.tree) / r, link);
	}
}

// One compiler run of the build: a unit, the link, or the coverage flush.
struct Step {
	enum Kind { compile, link, flush } kind;
	fs::path src;	// compile: the unit
	std::vector<std::string> argv;
};

// Every command the build runs, in order, for the build folder @dir and
// our sources at @src.  The cache key hashes them (with stand-ins for the
// two folders), so a flag changed here is a new entry.
std::vector<Step> build_steps(const Plan &p, const fs::path &dir, const fs::path &src) {
	const fs::path k = src / "kernel";
	std::vector<std::string> common = p.cflags;
	// The tree's headers are read through links in this folder, which is
	// renamed (and may be deleted) after the build: debug info and
	// sanitizer reports name the tree's own files instead.
	common.push_back("-ffile-prefix-map=" + (dir / "real").string() + "=" + p.tree);
	std::vector<std::string> kflags = p.kernel_cflags;
	kflags.insert(kflags.end(), {
		"-include", (k / "shim/kshim.h").string(),
		"-I" + (dir / "real/include").string(), "-I" + (dir / "shadow").string(),
		"-iquote", p.tree + "/net/core", "-I" + (k / "runtime").string(),
		"-I" + (k / "adapters").string(), "-I" + (dir / "extracted").string()});

	// The tree's own code (the adapter includes devmem.c and the fill) is
	// what coverage is about; the runtime and shim are not counted.
	const std::vector<std::string> counted = p.coverage ? std::vector<std::string>{"--coverage"} : std::vector<std::string>{};
	struct Unit { fs::path src; bool kernel; std::vector<std::string> extra; };
	std::vector<Unit> units;
	std::vector<std::string> features;
	for (const auto &d : p.era.unit_defines) features.push_back("-D" + d);
	for (const char *r : kRuntimeSources) units.push_back({k / "runtime" / r, true, features});
	if (p.era.uses_genalloc) {
		units.push_back({fs::path(p.tree) / "lib/genalloc.c", true, features});
		units.back().extra.insert(units.back().extra.end(), counted.begin(), counted.end());
	}
	std::vector<std::string> defs = features;
	defs.insert(defs.end(), counted.begin(), counted.end());
	for (const auto &d : p.era.defines) defs.push_back("-D" + d);
	units.push_back({k / "adapters" / p.era.adapter, true, defs});
	for (const char *r : kLibcSources) units.push_back({k / "runtime" / r, false, {}});
	units.push_back({src / "plugins/shim/niov_shim.c", false, {"-I" + (src / "plugins/include").string()}});

	std::vector<Step> steps;
	std::vector<std::string> objects;
	for (const auto &u : units) {
		const std::string obj = (dir / (u.src.stem().string() + ".o")).string();
		std::vector<std::string> argv = {p.cc};
		argv.insert(argv.end(), common.begin(), common.end());
		if (u.kernel) argv.insert(argv.end(), kflags.begin(), kflags.end());
		argv.insert(argv.end(), u.extra.begin(), u.extra.end());
		argv.insert(argv.end(), {"-c", u.src.string(), "-o", obj});
		steps.push_back({Step::compile, u.src, argv});
		objects.push_back(obj);
	}
	std::vector<std::string> link = {p.cc, "-shared", "-o", (dir / "plugin.so").string()};
	link.insert(link.end(), common.begin(), common.end());
	link.insert(link.end(), objects.begin(), objects.end());
	if (!p.asan) link.push_back("-Wl,--no-undefined");
	// libgcov's __gcov_dump is linked only when something refers to it:
	// flush.so calls it by name, so the plugin must carry (and export) it.
	if (p.coverage) link.insert(link.end(), {"--coverage", "-Wl,--undefined=__gcov_dump"});
	steps.push_back({Step::link, {}, link});
	if (p.coverage)
		steps.push_back({Step::flush, {}, {p.cc, "-shared", "-fPIC", "-O1", "-o", (dir / "flush.so").string(),
						     (k / "coverage/flush_at_exit.c").string(), "-ldl"}});
	return steps;
}

void build_into(const Plan &p, const fs::path &dir) {
	const fs::path log = dir / "build.log";
	make_shadows(p, dir);
	if (!p.fill_text.empty()) write_tree_file(dir / "extracted/zerocopy_fill_skb_from_devmem.c", p.fill_text);

	for (const auto &step : build_steps(p, dir, source_dir())) {
		if (run(step.argv, log) == 0) continue;
		switch (step.kind) {
		case Step::compile:
			if (const auto field = unknown_field(log, p.tree)) throw KernelTreeError(*field);
			throw KernelTreeError("compiling " + step.src.string() + " failed: " + first_error(log) +
					      " (log: " + log.string() + ")");
		case Step::link:
			throw KernelTreeError("linking the kernel plugin failed: " + first_error(log) +
					      " (log: " + log.string() + ")");
		case Step::flush:
			throw KernelTreeError("building the coverage flush failed: " + first_error(log) +
					      " (log: " + log.string() + ")");
		}
	}
	write_tree_file(dir / "era.txt", p.era.letter + "\n" + p.era.name + "\n" + p.rules.preset + "\n" + p.tree + "\n");
}

// A plugin that does not load or declares other rules than its code is a bug of ours.
void check_loads(const std::string &so, const KernelRules &rules) {
	void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
	if (!h) throw KernelTreeError(std::string("the kernel plugin does not load: ") + dlerror());
	auto get = reinterpret_cast<const niov_impl_ops *(*)()>(dlsym(h, "niov_impl_get"));
	const niov_impl_ops *ops = get ? get() : nullptr;
	const bool ok = ops && ops->abi_version == NIOV_IMPL_ABI_VERSION && ops->rules && rules.preset == ops->rules &&
			rules.policy == (ops->policy ? ops->policy : "");
	dlclose(h);
	if (!ok)
		throw KernelTreeError("the kernel plugin " + so + " does not declare ABI v" +
				      std::to_string(NIOV_IMPL_ABI_VERSION) + " rules " + rules.preset +
				      (rules.policy.empty() ? "" : " + " + rules.policy));
}

}  // namespace

std::string plan_hash(const Plan &p) {
	Fnv h;
	h.add(p.asan ? "asan" : "plain");
	h.add(p.coverage ? "coverage" : "");
	h.add(p.tree);
	for (const auto &d : p.era.defines) h.add(d);
	for (const auto &d : p.era.unit_defines) h.add(d);
	for (const auto &f : p.tree_files) { h.add(f); h.add(read_file_or_empty(p.tree + "/" + f)); }
	h.add(p.fill_text);
	for (const auto &f : our_sources()) { h.add(f.filename()); h.add(read_file_or_empty(f)); }
	// The compiler and every flag it is run with, the build's own included:
	// the commands with stand-ins for the build folder and our sources, so
	// that the key names what is built and not where.
	for (const auto &step : build_steps(p, "/@build@", "/@source@"))
		for (const auto &w : step.argv) h.add(w);
	return h.hex();
}

std::string kernel_cache_dir() {
	if (const char *d = std::getenv("NIOV_KERNEL_CACHE")) return d;
	if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/niovcheck/kernel";
	if (const char *home = std::getenv("HOME")) return std::string(home) + "/.cache/niovcheck/kernel";
	return "/tmp/niovcheck-kernel-cache";
}

bool plugin_needs_asan(const std::string &path) {
	return read_file_or_empty(path).find("libasan.so") != std::string::npos;
}

KernelBuild kernel_build(const std::string &tree_arg, const KernelBuildOptions &opt) {
	std::error_code ec;
	const fs::path tree = fs::canonical(tree_arg, ec);
	if (ec || !fs::is_directory(tree)) throw KernelTreeError(tree_arg + ": not a directory");
	const Plan plan = make_plan(tree.string(), opt.asan, opt.coverage, opt.cc);

	KernelBuild out;
	out.era = plan.era;
	out.rules = plan.rules.preset;
	out.policy = plan.rules.policy;
	out.read = plan.rules;
	out.asan = opt.asan;
	out.coverage = opt.coverage;
	std::set<std::string> inputs(plan.tree_files.begin(), plan.tree_files.end());
	// What the probe reads besides: the fill's file and the netlink handlers
	// the rules come from, the header its features come from.
	for (const char *f : {"net/core/datagram.c", "net/core/netdev-genl.c", "net/core/devmem.h", "include/net/netmem.h"})
		if (fs::exists(tree / f)) inputs.insert(f);
	out.inputs.assign(inputs.begin(), inputs.end());
	const fs::path cache = opt.cache_dir.empty() ? kernel_cache_dir() : opt.cache_dir;
	clean_interrupted_builds(cache);
	const fs::path dir = cache / (plan_hash(plan) + (opt.asan ? "-asan" : "") + (opt.coverage ? "-cov" : "") +
				      (plan.cc != "gcc" ? "-" + fs::path(plan.cc).filename().string() : ""));
	out.build_dir = dir.string();
	out.plugin = (dir / "plugin.so").string();
	if (!opt.force && fs::exists(out.plugin)) {
		const std::string why = cache_entry_mismatch(dir);
		out.cached = why.empty();
		if (!out.cached && !opt.quiet)
			std::fprintf(stderr, "niovcheck kernel: not using the cached %s: %s; rebuilding\n", out.plugin.c_str(),
				     why.c_str());
	}
	if (!out.cached) {
		const fs::path tmp = dir.string() + ".tmp." + std::to_string(getpid());
		fs::remove_all(tmp, ec);
		fs::create_directories(tmp);
		if (!opt.quiet) std::fprintf(stderr, "niovcheck kernel: building %s (era %s) in %s\n",
					     tree.c_str(), plan.era.letter.c_str(), dir.c_str());
		try {
			build_into(plan, tmp);
		} catch (const KernelTreeError &e) {  // a full disk leaves empty logs: say so
			throw KernelTreeError(e.what() + cache_space_note(cache));
		}
		record_cache_entry(tmp, dir.filename().string());
		// Another run may have built the same inputs meanwhile and be using
		// its plugin (and, for coverage, the notes its counters must
		// match): a sound entry of theirs stays, ours goes.  --force and an
		// entry that failed its check are replaced.
		if (opt.force || !cache_entry_mismatch(dir).empty()) fs::remove_all(dir, ec);
		fs::rename(tmp, dir, ec);
		if (ec && cache_entry_mismatch(dir).empty()) {
			fs::remove_all(tmp, ec);
		} else if (ec) {
			fs::remove_all(dir, ec);
			fs::rename(tmp, dir);
		}
	}
	// A coverage build is the plain build's code with counters, and loading
	// it here would write them where it was compiled: the plain build of the
	// tree is the one checked.
	if (!opt.asan && !opt.coverage) check_loads(out.plugin, plan.rules);
	if (!opt.output.empty()) {
		fs::create_directories(fs::absolute(opt.output).parent_path());
		fs::copy_file(out.plugin, opt.output, fs::copy_options::overwrite_existing, ec);
		if (ec) throw KernelTreeError(opt.output + ": cannot write: " + ec.message());
		out.plugin = fs::absolute(opt.output).string();
	}
	return out;
}

}  // namespace niov::cli
