// `niovcheck plugin build FILE.c [-o PATH] [--asan]`: a plugin from a C file
// anywhere, compiled against the ABI headers, the shim and the shared
// kernel-shaped code (plugins/include, plugins/shim, plugins/common) of this
// installation or source tree.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bounded_file.hpp"
#include "commands.hpp"

namespace niov::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char *kPluginUsage =
	"usage: plugin build FILE.c [-o PATH] [--asan] [--cc COMPILER]\n"
	"  compiles FILE.c with the plugin ABI, the shim and plugins/common into a plugin .so\n"
	"  (default ./lib<stem>.so) and prints its path; --asan adds ASan + UBSan (niovcheck\n"
	"  loads such a plugin under the ASan runtime by itself)";

std::string quote(const std::string &s) {
	std::string q = "'";
	for (char c : s)
		q += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return q + "'";
}

// The first line of the compiler's log that says "error".
std::string first_compile_error(const std::string &log) {
	std::string text;
	try {
		text = read_bounded(log, 16 << 20);
	} catch (const FileError &) {
		return "see the log";
	}
	for (size_t at = 0; at < text.size();) {
		const size_t end = std::min(text.find('\n', at), text.size());
		const std::string line = text.substr(at, end - at);
		if (line.find("error") != std::string::npos)
			return line;
		at = end + 1;
	}
	return "see the log";
}

// Whether the shared object defines niov_impl_get, read off its dynamic
// symbol table (nm), not by loading it: loading runs the plugin's code.
bool exports_entry_point(const std::string &so) {
	const std::string cmd = "nm -D --defined-only " + quote(so) + " 2>/dev/null";
	std::FILE *p = ::popen(cmd.c_str(), "r");
	if (!p)
		return true;  // cannot tell: the loader will say
	bool found = false;
	char line[512];
	while (std::fgets(line, sizeof line, p))
		found |= std::string(line).find(" niov_impl_get\n") != std::string::npos;
	const int status = ::pclose(p);
	return found || status != 0;
}

}  // namespace

// An installed niovcheck has the SDK in <prefix>/share/niovcheck/plugins;
// a build tree takes it from the source tree it was built from.
std::string plugin_sdk_dir() {
	std::error_code ec;
	const fs::path exe = fs::canonical("/proc/self/exe", ec);
	const fs::path installed = exe.parent_path().parent_path() / "share" / "niovcheck" / "plugins";
	if (fs::exists(installed / "include" / "niov_impl.h", ec))
		return installed.string();
	return std::string(NIOV_SOURCE_DIR) + "/plugins";
}

int plugin_build(Args &args) {
	const bool asan = args.flag("asan");
	std::string out = args.option("output", "");
	const char *env_cc = std::getenv("CC");
	const std::string cc = args.option("cc", env_cc && *env_cc ? env_cc : "gcc");
	const auto pos = args.positional();
	args.done();
	if (pos.size() != 1)
		throw UsageError(kPluginUsage);
	std::error_code ec;
	const fs::path src = fs::absolute(pos[0], ec);
	if (!fs::is_regular_file(src, ec))
		throw UsageError(fmt::format("{}: no such file", pos[0]));
	if (out.empty())
		out = "lib" + src.stem().string() + ".so";
	out = fs::absolute(out, ec).string();
	const fs::path sdk = plugin_sdk_dir();
	std::vector<std::string> sources{src.string(), (sdk / "shim" / "niov_shim.c").string()};
	for (const auto &e : fs::directory_iterator(sdk / "common", ec))
		if (e.path().extension() == ".c")
			sources.push_back(e.path().string());
	// As plugins/CMakeLists.txt builds the shipped ones: only niov_impl_get
	// exported, and (without ASan) a missing shim symbol fails the link,
	// not the dlopen.
	std::string cmd = fmt::format("{} -std=gnu11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -I{} -I{} -I{}",
				      quote(cc), quote((sdk / "include").string()), quote((sdk / "common").string()),
				      quote(src.parent_path().string()));
	cmd += asan ? " -fsanitize=address,undefined -fno-omit-frame-pointer" : " -Wl,--no-undefined";
	for (const auto &s : sources)
		cmd += " " + quote(s);
	cmd += " -o " + quote(out);
	// The compiler's messages go to a log beside the plugin: one line here
	// says where, with the first error.
	// A file of that name that is not ours is left alone.
	std::string log = out + ".log";
	if (fs::exists(fs::symlink_status(log, ec)))
		log = fmt::format("{}.{}.log", out, ::getpid());
	if (std::system(("LC_ALL=C " + cmd + " >" + quote(log) + " 2>&1").c_str()) != 0)
		throw UsageError(fmt::format("{}: does not compile: {} (log: {})", pos[0], first_compile_error(log), log));
	fs::remove(log, ec);
	// No entry point, no plugin: said now, not by the first command that loads it.
	if (!exports_entry_point(out)) {
		fs::remove(out, ec);
		throw UsageError(fmt::format("{}: compiles, but exports no niov_impl_get (the plugin's entry point, "
					     "plugins/include/niov_impl.h); nothing built",
					     pos[0]));
	}
	std::printf("%s\n", out.c_str());
	return kExitClean;
}

int cmd_plugin(int argc, char **argv) {
	if (argc < 3)
		throw UsageError(kPluginUsage);
	const std::string sub = argv[2];
	static char output[] = "--output";
	std::vector<char *> v(argv, argv + argc);
	for (auto &a : v)
		if (std::string(a) == "-o")
			a = output;
	Args args(argc, v.data(), 3);
	if (sub == "build")
		return plugin_build(args);
	throw UsageError(fmt::format("unknown plugin subcommand '{}' (build)", sub));
}

}  // namespace niov::cli
