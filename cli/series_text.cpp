// `kernel series` as text: the table, each step's files and coverage, the
// findings, the verdict.
#include <algorithm>

#include <fmt/format.h>

#include "series_report.hpp"

namespace niov::cli {

namespace {

std::string clip(const std::string &s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 3) + "..."; }

std::string join_list(const std::vector<std::string> &v, const char *sep = ", ") {
	std::string s;
	for (const auto &x : v)
		s += (s.empty() ? "" : sep) + x;
	return s;
}

std::string rules_of(const SeriesStep &s) { return s.run->ctx.rules.label(); }

std::string coverage_cell(const SeriesStep &s) {
	if (s.index == 0)
		return "-";
	if (s.added.empty())
		return "no code";
	if (s.same_as >= 0)
		return "-";
	if (!s.coverage.ran)
		return s.coverage.note.rfind("off", 0) == 0 ? "off" : "not run";
	const PatchCoverage &pc = s.patch_coverage;
	return fmt::format("{}/{}{}", pc.exercised, pc.code, s.coverage_warning.empty() ? "" : " !");
}

std::string hunk_text(const HunkApplied &h, std::size_t n) {
	std::string s = fmt::format("#{} at {}", n, h.at);
	if (h.offset)
		s += fmt::format(" (offset {:+})", h.offset);
	if (h.fuzz)
		s += fmt::format(" (fuzz {})", h.fuzz);
	return s;
}

void print_step(std::FILE *out, const SeriesVerdict &v, const SeriesStep &s) {
	if (s.index == 0) {
		std::fprintf(out, "\nbase: %s\n", v.source->base.c_str());
	} else {
		std::fprintf(out, "\npatch %u: %s\n  %s\n", s.index, s.patch->subject.c_str(), s.patch->name.c_str());
		for (const auto &sec : s.sections) {
			std::string how;
			if (sec.applied) {
				std::vector<std::string> hs;
				for (std::size_t i = 0; i < sec.hunks.size(); ++i)
					hs.push_back(hunk_text(sec.hunks[i], i + 1));
				how = ": hunk " + join_list(hs);
			} else if (sec.role != FileRole::not_compiled && sec.role != FileRole::unread) {
				how = fmt::format(": {} hunk{} (the commit's own)", sec.hunk_count, sec.hunk_count == 1 ? "" : "s");
			}
			std::fprintf(out, "  %-40s %s%s\n", sec.path.c_str(), role_name(sec.role), how.c_str());
		}
	}
	std::fprintf(out, "  era %s, rules %s; plugin %s\n", s.build.era.letter.c_str(), rules_of(s).c_str(),
		     s.build.plugin.c_str());
	if (s.same_as >= 0)
		std::fprintf(out, "  the files kernel mode reads are those of step %d, byte for byte: its verdict stands\n",
			     s.same_as);
	if (s.index > 0 && !s.added.empty()) {
		unsigned added = 0;
		for (const auto &[f, l] : s.added)
			added += static_cast<unsigned>(l.size());
		if (s.coverage.ran) {
			const PatchCoverage &pc = s.patch_coverage;
			std::fprintf(out, "  coverage: %u of %u added lines of code exercised (%u added or changed lines, "
					  "the rest hold no code; engines %s on the --coverage build)\n",
				     pc.exercised, pc.code, added, join_list(s.coverage.engines).c_str());
			if (!pc.unexercised.empty())
				std::fprintf(out, "  not exercised: %s\n", join_list(pc.unexercised).c_str());
		} else if (s.same_as < 0) {
			std::fprintf(out, "  coverage: not measured: %s\n", s.coverage.note.c_str());
		}
	}
	for (const auto &k : s.fresh)
		std::fprintf(out, "  new: %s\n", k.c_str());
	for (const auto &k : s.fixed)
		std::fprintf(out, "  fixed: %s\n", k.c_str());
	for (const auto &[k, from] : s.carried)
		std::fprintf(out, "  %s: %s\n", from == 0 ? "the base's own (not counted)" : fmt::format("still there (from patch {})", from).c_str(),
			     k.c_str());
}

void print_finding(std::FILE *out, const Finding &f) {
	std::fprintf(out, "    %s\n", f.title.c_str());
	if (!f.violates.empty())
		std::fprintf(out, "    violates: %s\n", join_list(f.violates).c_str());
	std::string seen;
	for (const auto &o : f.seen_by)
		if (seen.find(o.engine) == std::string::npos)
			seen += (seen.empty() ? "" : ", ") + o.engine;
	std::fprintf(out, "    seen by %zu (%s)\n", f.seen_by.size(), seen.c_str());
	std::fprintf(out, "    replay: %s\n", f.replay.empty() ? "(none: see the engine's log)" : f.replay.c_str());
	if (f.replay_checked && !f.replay_reproduces)
		std::fprintf(out, "    (replay check: %s)\n", f.replay_note.c_str());
}

}  // namespace

void print_series_text(std::FILE *out, const SeriesVerdict &v) {
	const EngineInput &c = v.steps.front().run->ctx;
	std::fprintf(out, "niovcheck kernel series: %zu patch%s on %s (%s)\n", v.steps.size() - 1,
		     v.steps.size() == 2 ? "" : "es", v.source->base.c_str(), v.source->what.c_str());
	std::fprintf(out, "  budget %s (%llu cases per property, %u s per fuzz target); seed %llu; coverage %s\n\n",
		     v.req.budget == Budget::nightly ? "nightly" : "presubmit", static_cast<unsigned long long>(c.cases),
		     c.fuzz_seconds, static_cast<unsigned long long>(v.req.seed),
		     v.opt.coverage ? fmt::format("by {} on a --coverage build", join_list(coverage_engines(v.req))).c_str()
				    : "off");
	std::vector<std::string> engines;
	for (const auto &e : v.steps.front().run->verdict.engines)
		if (e.name != "kernel")
			engines.push_back(e.name);
	auto changes_of = [](const SeriesStep &s) {
		std::string changes = s.index == 0 ? "-" : s.changes.empty() ? "none" : join_list(s.changes, " ");
		if (s.same_as >= 0)
			changes = fmt::format("(= step {}) {}", s.same_as, s.changes.empty() ? "" : changes);
		return changes;
	};
	// As wide as the widest cell, within reason: the rules are what the
	// table is read for.
	std::size_t wc = 7, wr = 5;
	for (const auto &s : v.steps) {
		wc = std::max(wc, std::min<std::size_t>(changes_of(s).size(), 36));
		wr = std::max(wr, std::min<std::size_t>(rules_of(s).size(), 60));
	}
	std::string head = fmt::format("{:<4} {:<40} {:<{}} {:<{}}", "step", "patch", "changes", wc, "rules", wr);
	for (const auto &e : engines)
		head += fmt::format(" {:<7}", e);
	head += fmt::format(" {:>3} {:>5} {:<9} {:>6}", "new", "fixed", "coverage", "s");
	std::fprintf(out, "%s\n", head.c_str());
	for (const auto &s : v.steps) {
		std::string row = fmt::format("{:<4} {:<40} {:<{}} {:<{}}", s.index, clip(s.title(), 40),
					      clip(changes_of(s), wc), wc, clip(rules_of(s), wr), wr);
		for (const auto &name : engines) {
			std::string mark = "-";
			for (const auto &e : s.run->verdict.engines)
				if (e.name == name)
					mark = engine_mark(s, e);
			row += fmt::format(" {:<7}", mark);
		}
		row += fmt::format(" {:>3} {:>5} {:<9} {:>6.1f}", s.index ? std::to_string(s.fresh.size()) : "-",
				   s.index ? std::to_string(s.fixed.size()) : "-", coverage_cell(s), s.seconds);
		std::fprintf(out, "%s\n", row.c_str());
	}
	for (const auto &s : v.steps)
		print_step(out, v, s);

	bool any = false;
	for (const auto &s : v.steps)
		for (const auto &k : s.index ? s.fresh : std::vector<std::string>{}) {
			if (!any)
				std::fprintf(out, "\nfindings brought in by the series:\n");
			any = true;
			std::fprintf(out, "  patch %u (%s): %s\n", s.index, s.patch->subject.c_str(), k.c_str());
			print_finding(out, *s.finding(k));
		}
	const SeriesStep &base = v.steps.front();
	if (!base.carried.empty()) {
		std::fprintf(out, "\nthe base's own findings (not counted):\n");
		for (const auto &[k, from] : base.carried) {
			std::fprintf(out, "  %s\n", k.c_str());
			print_finding(out, *base.finding(k));
		}
	}
	if (!v.warnings.empty()) {
		std::fprintf(out, "\nwarnings:\n");
		for (const auto &w : v.warnings)
			std::fprintf(out, "  %s\n", w.c_str());
	}
	if (v.first_bad >= 0) {
		const SeriesStep &s = v.steps[static_cast<std::size_t>(v.first_bad)];
		const Finding &f = *s.finding(s.fresh.front());
		std::fprintf(out, "\nverdict: first bad patch: %u (%s): %s\n  replay: %s\n", s.index, s.patch->subject.c_str(),
			     f.key.c_str(), f.replay.c_str());
	} else {
		std::fprintf(out, "\nverdict: clean: no patch brings in a finding%s (%zu steps, %.0f s)\n",
			     v.warnings.empty() ? "" : fmt::format(", {} warning{}", v.warnings.size(), v.warnings.size() == 1 ? "" : "s").c_str(),
			     v.steps.size(), v.seconds);
	}
}

}  // namespace niov::cli
