// niovcheck mutants: the scoreboard matrix.  Exit 1 when a must-catch
// variant survives every engine.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bounded_file.hpp"
#include "commands.hpp"
#include "engines/engine.hpp"
#include "mutants.hpp"
#include "plugin.hpp"
#include "rules_opts.hpp"
#include "plugin_load.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

namespace {

// build/bin/niovcheck -> build/
std::filesystem::path build_dir() {
	char buf[PATH_MAX];
	const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return ".";
	buf[n] = 0;
	return std::filesystem::path(buf).parent_path().parent_path();
}

// The rules a variant's sidecar (NAME.rules beside NAME.so) declares for
// it, as a v1 plugin cannot: "rules PRESET" and "policy KEY=VALUE" lines,
// '#' comments.  Nothing when there is no sidecar.
std::optional<RulesRequest> sidecar_rules(const std::string &so) {
	const std::string path = std::filesystem::path(so).replace_extension(".rules").string();
	const auto text = read_bounded_if_exists(path, 64 << 10);
	if (!text)
		return std::nullopt;
	RulesRequest r;
	r.rules_name = path + " (rules)";
	r.policy_name = path + " (policy)";
	std::istringstream in(*text);
	unsigned n = 0;
	for (std::string line; std::getline(in, line);) {
		++n;
		std::istringstream words(line.substr(0, line.find('#')));
		std::string key, value, more;
		if (!(words >> key))
			continue;
		if (!(words >> value) || (words >> more) || (key != "rules" && key != "policy"))
			throw UsageError(fmt::format("{}:{}: want 'rules PRESET' or 'policy KEY=VALUE'", path, n));
		(key == "rules" ? r.rules : r.policies.emplace_back()) = value;
	}
	return r;
}

// Any plugin is a variant: its must_catch (if it names one) says what must
// catch it; without one, anything an engine reports counts.  Its rules are
// the command line's, else its sidecar's, else what it declares.
Variant make_variant(const std::string &path, const RulesRequest &req, const worker::Limits &limits) {
	std::error_code ec;
	const std::string abs = std::filesystem::absolute(path, ec).string();
	const auto p = load_plugin(abs, limits);
	RulesRequest mine = req;
	if (!req.given())
		if (auto side = sidecar_rules(abs))
			mine = *side;
	Variant v{p->name(), abs, p->description(), p->must_catch(), p->must_catch().empty() ? "" : p->policy(), mine,
		  resolve_rules(mine, p.get())};
	return v;
}

// "libslip" of ".../libslip.so": how --variant names a variant by file.
std::string file_stem(const std::string &path) { return std::filesystem::path(path).stem().string(); }

std::vector<std::string> listed_broken(const std::string &list) {
	std::ifstream f(list);
	if (!f)
		throw UsageError(fmt::format("{}: cannot read the plugin list (build the plugins first)", list));
	std::vector<std::string> out;
	for (std::string line; std::getline(f, line);) {
		std::istringstream is(line);
		std::string kind, target, path;
		if (is >> kind >> target >> path && kind == "broken")
			out.push_back(path);
	}
	return out;
}

// The .so files of a folder of external variants, sorted.
std::vector<std::string> folder_plugins(const std::string &dir) {
	std::error_code ec;
	if (!std::filesystem::is_directory(dir, ec))
		throw UsageError(fmt::format("--variants-dir {}: not a folder", dir));
	std::vector<std::string> out;
	for (const auto &e : std::filesystem::directory_iterator(dir, ec))
		if (e.is_regular_file() && e.path().extension() == ".so")
			out.push_back(e.path().string());
	std::sort(out.begin(), out.end());
	if (out.empty())
		throw UsageError(fmt::format("--variants-dir {}: no .so plugin in it", dir));
	return out;
}

std::vector<Variant> load_variants(const std::vector<std::string> &paths, const std::string &only,
				   const RulesRequest &req, const worker::Limits &limits) {
	std::vector<Variant> out;
	for (const auto &path : paths) {
		Variant v = make_variant(path, req, limits);
		// By its name, or by its file: variants of one base share its name.
		if (only.empty() || only == v.name || only == file_stem(path) ||
		    only == std::filesystem::path(path).filename().string())
			out.push_back(std::move(v));
	}
	if (!only.empty() && out.empty())
		throw UsageError(fmt::format("no variant named '{}' (by plugin name or file)", only));
	// Rows a reader can tell apart: a name that two files share gets its file.
	std::map<std::string, unsigned> uses;
	for (const auto &v : out)
		++uses[v.name];
	for (auto &v : out)
		if (uses[v.name] > 1)
			v.name += "@" + file_stem(v.path);
	return out;
}

}  // namespace

int cmd_mutants(Args &args) {
	const bool json = args.flag("json");
	const std::string only = args.option("variant", "");
	// The budget and folders every variant's engines share.
	EngineInput base;
	base.req.source_dir = args.option("source-dir", NIOV_SOURCE_DIR);
	base.niovcheck = (build_dir() / "bin" / "niovcheck").string();
	const char *fuzz_env = std::getenv("NIOV_FUZZ_BUILD");
	base.req.fuzz_bin_dir =
		args.option("fuzz-build", fuzz_env && *fuzz_env ? fuzz_env : base.req.source_dir + "/build-fuzz") + "/bin";
	const char *fail_env = std::getenv("NIOV_FAILURE_DIR");
	base.work = std::filesystem::absolute(
		args.option("failure-dir", fail_env && *fail_env ? fail_env : "niovcheck-failures")).string();
	base.fuzz_seconds = static_cast<unsigned>(args.number("fuzz-seconds", 60));
	base.proof_timeout_ms = static_cast<unsigned>(args.number("proof-timeout-ms", 20000));
	base.cases = static_cast<unsigned>(args.number("cases", 0));
	base.req.seed = args.number("seed", 1);
	const std::string engines_opt = args.option("engines", "");
	const std::string list = args.option("plugins", (build_dir() / "lib" / "niov_plugins.txt").string());
	const std::vector<std::string> impls = args.options("impl");
	const std::string dir = args.option("variants-dir", "");
	const RulesRequest req = rules_request(args);
	base.limits = worker_limits(args);
	args.done();

	// --impl and --variants-dir replace the shipped broken variants.
	std::vector<std::string> paths = impls;
	if (!dir.empty())
		for (auto &p : folder_plugins(dir))
			paths.push_back(std::move(p));
	if (paths.empty())
		paths = listed_broken(list);
	const auto variants = load_variants(paths, only, req, base.limits);
	std::vector<const Engine *> engines;
	for (const auto &e : registry())
		if (e.hunt && (engines_opt.empty() || ("," + engines_opt + ",").find("," + std::string(e.name) + ",") != std::string::npos))
			engines.push_back(&e);
	if (engines.empty())
		throw UsageError(fmt::format("--engines '{}': want a comma list of {}", engines_opt, engine_list(true)));
	if (base.fuzz_seconds == 0 || base.proof_timeout_ms == 0)
		throw UsageError("--fuzz-seconds and --proof-timeout-ms must be at least 1");

	auto rows = nlohmann::json::array();
	unsigned survivors = 0, faults = 0;
	std::set<std::string> notes;  // why an engine did not run, said once
	if (!json) {
		std::set<std::string> labels;
		for (const auto &v : variants)
			labels.insert(rules_text(v.rules));
		for (const auto &l : labels)
			std::printf("niovcheck mutants: %s\n", l.c_str());
		std::printf("%-18s %-26s", "variant", "must catch");
		for (const auto *e : engines)
			std::printf(" %-12s", e->name);
		std::printf(" verdict\n");
	}
	for (const auto &v : variants) {
		nlohmann::json row{{"variant", v.name}, {"description", v.description},
				   {"must_catch", v.must_catch}, {"plugin", v.path}, {"rules", rules_json(v.rules)}};
		if (!v.policy.empty())
			row["policy"] = v.policy;
		bool caught = false, fault = false;
		std::string cells, first;
		auto by_engine = nlohmann::json::object();
		// The variant as the engines' input: its plugin, its rules.
		EngineInput in = base;
		in.plugin = v.path;
		in.plugin_name = v.name;
		in.must_catch = v.must_catch;
		in.request = v.request;
		in.rules = v.rules;
		for (const auto *e : engines) {
			const Catch c = e->hunt(in, v);
			caught |= c.caught;
			fault |= c.fault;
			by_engine[e->name] = {{"ran", c.ran}, {"caught", c.caught}, {"noticed", c.noticed}, {"fault", c.fault},
					      {"seconds", c.seconds}, {"invariant", c.invariant},
					      {"replay", c.replay}, {"note", c.note}};
			cells += fmt::format(" {:<12}", !c.ran	    ? "n/a"
							: c.fault  ? "FAULT"
							: c.caught ? fmt::format("yes {:.2f}s", c.seconds)
							: c.noticed ? "other"
								    : "no");
			if (c.fault)
				first += fmt::format("{}    {} engine: FINDING {}: {}\n      replay: {}", first.empty() ? "" : "\n",
						     e->name, c.invariant, c.note, c.replay);
			if (c.caught && first.empty() && !c.fault) {
				first = fmt::format("    {} caught by {} ({}): {}", v.name, e->name, c.invariant, c.replay);
				row["replay"] = c.replay;
				row["first_engine"] = e->name;
			} else if (!c.ran && !c.note.empty() && !json && notes.insert(e->name + c.note).second) {
				std::fprintf(stderr, "mutants: %s engine n/a: %s\n", e->name, c.note.c_str());
			}
		}
		row["engines"] = by_engine;
		row["caught"] = caught;
		row["fault"] = fault;
		survivors += !caught;
		faults += fault;
		if (json)
			rows.push_back(std::move(row));
		else
			std::printf("%-18s %-26s%s %s\n%s%s", v.name.c_str(),
				    v.must_catch.empty() ? "(any finding)" : v.must_catch.c_str(), cells.c_str(),
				    fault ? "PLUGIN FAULT" : caught ? "caught" : "SURVIVED", first.c_str(),
				    first.empty() ? "" : "\n");
	}
	if (json) {
		std::puts(nlohmann::json{{"schema", "niovcheck-mutants/1"}, {"variants", rows},
					 {"survivors", survivors}, {"faults", faults}}
				  .dump(2)
				  .c_str());
	} else {
		std::printf("%zu variants, %u survived", variants.size(), survivors);
		if (faults)
			std::printf(", %u with plugin faults", faults);
		std::printf("\n");
	}
	// A plugin that crashes, hangs or leaks makes the scoreboard a finding.
	return survivors || faults ? kExitViolation : kExitClean;
}

}  // namespace niov::cli
