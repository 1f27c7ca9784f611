#include "series_prepare.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "../kernel/tool/era_probe.hpp"
#include "args.hpp"
#include "series_diff.hpp"

namespace fs = std::filesystem;

namespace niov::cli {

namespace {

std::string step_name(const SeriesStep &s) {
	return s.patch ? fmt::format("patch {} ({})", s.index, s.patch->name) : "the base";
}

std::vector<DiffSection> sections_of(const SeriesPatch &p) {
	try {
		return diff_sections(p.text);
	} catch (const DiffError &e) {
		throw UsageError(fmt::format("{}: {}", p.name, e.what()));
	}
}

// Applies the sections kernel mode reads to a scratch copy of @prev.
TreeFiles apply_patch(const SeriesPatch &p, const std::vector<DiffSection> &sections, const TreeFiles &prev,
		      std::vector<SectionReport> &reports, const std::string &work) {
	const std::string dir = work + "/apply/tree", scratch = work + "/tmp";
	write_tree(prev, dir);
	for (std::size_t i = 0; i < sections.size(); ++i) {
		const DiffSection &s = sections[i];
		if (!kernel_mode_reads(s.path) && !kernel_mode_reads(s.old_path))
			continue;
		if (s.binary)
			throw UsageError(fmt::format("{}: {}: a binary diff of a file kernel mode reads", p.name, s.path));
		if (s.hunks.empty() && !s.created && !s.deleted && s.old_path == s.path)
			continue;  // a mode change: nothing kernel mode reads changes
		reports[i].hunks = apply_section(s, dir, p.name, scratch);
		reports[i].applied = true;
	}
	return read_tree(dir);
}

// The rule choices and features that differ from the step before.
std::vector<std::string> changes_from(const KernelBuild &before, const KernelBuild &now) {
	std::vector<std::string> out;
	if (before.era.letter != now.era.letter)
		out.push_back(fmt::format("era {}", now.era.letter));
	std::map<std::string, std::string> was;
	for (const auto &c : before.era.choices.read)
		was[c.key] = c.value;
	std::set<std::string> keys;
	for (const auto &c : now.era.choices.read) {
		keys.insert(c.key);
		if (!was.count(c.key) || was[c.key] != c.value)
			out.push_back(c.key + "=" + c.value);
	}
	for (const auto &[k, v] : was)
		if (!keys.count(k))
			out.push_back("-" + k);
	auto flags = [](const KernelBuild &b) {
		std::set<std::string> f;
		for (const auto &d : b.era.unit_defines)
			f.insert(d.substr(0, d.find('=')));
		return f;
	};
	const auto a = flags(before), b = flags(now);
	for (const auto &f : b)
		if (!a.count(f))
			out.push_back("+" + f);
	for (const auto &f : a)
		if (!b.count(f))
			out.push_back("-" + f);
	return out;
}

// Whether the build of @b reads the same files as @a, byte for byte.
bool same_inputs(const SeriesStep &a, const SeriesStep &b) {
	if (a.build.inputs != b.build.inputs)
		return false;
	for (const auto &f : a.build.inputs) {
		const auto x = a.files.find(f), y = b.files.find(f);
		if ((x == a.files.end()) != (y == b.files.end()) || (x != a.files.end() && x->second != y->second))
			return false;
	}
	return true;
}

FileRole role_of(const std::string &path, const KernelBuild &b) {
	if (std::find(b.inputs.begin(), b.inputs.end(), path) == b.inputs.end())
		return kernel_mode_reads(path) ? FileRole::unread : FileRole::not_compiled;
	if (path == "net/core/datagram.c")
		return b.era.has_fill ? FileRole::fill : FileRole::unread;
	if (path == "net/core/netdev-genl.c")
		return FileRole::rules;
	return FileRole::compiled;
}

}  // namespace

std::vector<SeriesStep> prepare_steps(const SeriesSource &src, const AllRequest &req, const SeriesOptions &opt) {
	const std::string scratch = opt.work + "/tmp";
	fs::create_directories(scratch);
	std::vector<SeriesStep> steps(src.patches.size() + 1);
	std::vector<std::vector<DiffSection>> sections(src.patches.size());
	bool touches = false;
	for (std::size_t k = 0; k < src.patches.size(); ++k) {
		sections[k] = sections_of(src.patches[k]);
		if (sections[k].empty())
			throw UsageError(fmt::format("{}: no diff in it", src.patches[k].name));
		for (const auto &s : sections[k])
			touches |= kernel_mode_reads(s.path) || kernel_mode_reads(s.old_path);
	}
	if (!touches) {
		std::set<std::string> files;
		for (const auto &ss : sections)
			for (const auto &s : ss)
				files.insert(s.path);
		std::string list;
		for (const auto &f : files)
			list += (list.empty() ? "" : ", ") + f;
		throw UsageError(fmt::format("{}: no patch touches a file kernel mode compiles or reads (they touch {})",
					     src.what, list));
	}

	const bool range = src.kind == SeriesSource::Kind::range;
	steps[0].files = range ? tree_files_at_rev(src.base, src.base_rev, scratch) : tree_files_of_dir(src.base);
	if (!steps[0].files.count("net/core/devmem.c"))
		throw kernel::KernelTreeError(fmt::format("{}{}: net/core/devmem.c missing", src.base,
							  range ? " at " + src.base_rev.substr(0, 12) : ""));
	for (std::size_t k = 1; k < steps.size(); ++k) {
		SeriesStep &s = steps[k];
		s.index = static_cast<unsigned>(k);
		s.patch = &src.patches[k - 1];
		for (const auto &d : sections[k - 1]) {
			SectionReport r;
			r.path = d.path;
			r.hunk_count = d.hunks.size();
			r.added = d.added;
			r.removed = d.removed;
			s.sections.push_back(std::move(r));
		}
		s.files = range ? tree_files_at_rev(src.base, s.patch->rev, scratch)
				: apply_patch(*s.patch, sections[k - 1], steps[k - 1].files, s.sections, opt.work);
	}

	// Every step's tree, build and rules, before any engine runs.
	const std::string trees = fs::weakly_canonical(fs::path(kernel_cache_dir()) / "trees").string();
	fs::create_directories(trees);
	for (auto &s : steps) {
		s.tree = materialize(s.files, trees);
		const auto t0 = std::chrono::steady_clock::now();
		try {
			KernelBuildOptions kopt;
			kopt.quiet = true;
			s.build = kernel_build(s.tree, kopt);
		} catch (const kernel::KernelTreeError &e) {
			throw kernel::KernelTreeError(fmt::format("{}: {}", step_name(s), e.what()));
		}
		s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		if (!req.rules.given() && !s.build.read.ambiguous.empty())
			throw UsageError(fmt::format("{}: the code does not say plainly which rules it follows: {}; pass --rules/--policy",
						     step_name(s), s.build.read.ambiguous.front()));
		for (auto &r : s.sections)
			r.role = role_of(r.path, s.build);
		if (s.index == 0)
			continue;
		const SeriesStep &prev = steps[s.index - 1];
		s.changes = changes_from(prev.build, s.build);
		if (same_inputs(prev, s))
			s.same_as = prev.same_as >= 0 ? prev.same_as : static_cast<int>(prev.index);
		for (const auto &f : s.build.inputs) {
			if (f == "net/core/netdev-genl.c")
				continue;  // read for the rules; no line of it is built
			const auto a = prev.files.find(f);
			const auto lines = added_lines(a == prev.files.end() ? "" : a->second, s.files.at(f), scratch);
			if (!lines.empty())
				s.added[f] = lines;
		}
	}
	return steps;
}

}  // namespace niov::cli
