#include "all_report.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "all_child.hpp"
#include "rules_opts.hpp"

namespace niov::cli {

namespace {

std::string seen_by_text(const Finding &f) {
	std::string s;
	std::string last_engine;
	for (const auto &o : f.seen_by) {
		std::string what = o.what;
		const size_t slash = what.rfind('/');
		if (o.engine == "replay" && slash != std::string::npos)
			what = what.substr(slash + 1);
		if (o.engine != last_engine)
			s += fmt::format("{}{} ", s.empty() ? "" : "; ", o.engine);
		else
			s += ", ";
		s += what;
		last_engine = o.engine;
	}
	return s;
}


// TAP directives and descriptions stay on one line and avoid '#'.
std::string tap_text(std::string s) {
	for (char &c : s)
		if (c == '\n' || c == '#')
			c = ' ';
		else if (c == '"')
			c = '\'';
	return s;
}

std::string subject(const AllVerdict &v) {
	const EngineInput &c = *v.ctx;
	if (!v.kernel.empty())
		return fmt::format("kernel tree {} (plugin {})", v.kernel, c.plugin);
	return fmt::format("plugin {} ({})", c.plugin, c.plugin_name);
}

const char *budget_name(Budget b) { return b == Budget::nightly ? "nightly" : "presubmit"; }

}  // namespace

std::string xml_escape(const std::string &s) {
	std::string out;
	for (char c : s) {
		switch (c) {
		case '&': out += "&amp;"; break;
		case '<': out += "&lt;"; break;
		case '>': out += "&gt;"; break;
		case '"': out += "&quot;"; break;
		default:
			if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t')
				out += c;
		}
	}
	return out;
}

void print_text(std::FILE *out, const AllVerdict &v) {
	const EngineInput &c = *v.ctx;
	std::fprintf(out, "niovcheck all: %s\n  %s; budget %s (%llu cases per property, %u s per fuzz target); seed %llu\n\n",
		     subject(v).c_str(), rules_text(c.rules).c_str(), budget_name(c.req.budget),
		     static_cast<unsigned long long>(c.cases), c.fuzz_seconds, static_cast<unsigned long long>(c.req.seed));
	if (!c.rules_from_code.empty()) {
		std::fprintf(out, "  the code's choices:\n");
		for (const auto &l : c.rules_from_code)
			std::fprintf(out, "    %s\n", l.c_str());
		std::fprintf(out, "\n");
	}
	std::fprintf(out, "%-10s %-9s %8s  %s\n", "engine", "verdict", "seconds", "what ran / why not");
	for (const auto &e : v.engines) {
		std::string what = e.runs;
		if (!e.note.empty())
			what += (what.empty() ? "" : "; ") + e.note;
		std::fprintf(out, "%-10s %-9s %8.1f  %s\n", e.name.c_str(), std::string(status_name(e.status)).c_str(),
			     e.seconds, what.c_str());
	}
	if (!v.scoreboard.empty()) {
		std::string row;
		bool any = false;
		for (const auto &[engine, caught] : v.scoreboard) {
			row += fmt::format("{}{} {}", row.empty() ? "" : ", ", engine, caught ? "caught" : "no");
			any |= caught;
		}
		std::fprintf(out, "%-10s %-9s %8s  must catch %s: %s\n", "scoreboard", any ? "caught" : "SURVIVED", "",
			     c.must_catch.c_str(), row.c_str());
	}
	size_t known = 0;
	for (const auto &e : v.engines)
		for (const auto &o : e.known) {
			if (!known++)
				std::fprintf(out, "\nknown findings of the rules in force (real; expected, not counted):\n");
			std::fprintf(out, "  - %s\n    shown by %s %s\n    replay: %s\n", o.detail.c_str(), o.engine.c_str(),
				     o.what.c_str(), o.replay.c_str());
		}
	if (!v.warns.empty()) {
		std::fprintf(out, "\nkernel WARNs hit, per site (each hit in %s/kernel-warn.log):\n", c.work.c_str());
		for (const auto &w : v.warns)
			std::fprintf(out, "  %s: %s x %llu, first %s\n", w.site.c_str(), w.what.c_str(),
				     static_cast<unsigned long long>(w.count), w.first.empty() ? "(no context)" : w.first.c_str());
	}
	if (v.interrupted) {
		std::fprintf(out, "\nverdict: INTERRUPTED by %s after %.0f s: not a result (the engines above are what "
			     "finished)\n",
			     signal_name(v.interrupted).c_str(), v.seconds);
		return;
	}
	if (v.findings.empty()) {
		std::fprintf(out, "\nverdict: clean (no finding), %.0f s\n", v.seconds);
		return;
	}
	std::fprintf(out, "\nfindings, grouped by root cause (%zu):\n", v.findings.size());
	for (size_t i = 0; i < v.findings.size(); ++i) {
		const Finding &f = v.findings[i];
		std::fprintf(out, "%2zu. %s\n    %s\n", i + 1, f.key.c_str(), f.title.c_str());
		if (!f.violates.empty()) {
			std::string s;
			for (const auto &x : f.violates)
				s += (s.empty() ? "" : ", ") + x;
			std::fprintf(out, "    violates: %s\n", s.c_str());
		}
		std::fprintf(out, "    seen by (%zu): %s\n", f.seen_by.size(), seen_by_text(f).c_str());
		std::fprintf(out, "    replay: %s\n", f.replay.empty() ? "(none: see the engine's log)" : f.replay.c_str());
		if (f.replay_checked && !f.replay_reproduces)
			std::fprintf(out, "    (replay check: %s)\n", f.replay_note.c_str());
	}
	std::fprintf(out, "\nverdict: %zu finding%s, %.0f s\n", v.findings.size(), v.findings.size() == 1 ? "" : "s",
		     v.seconds);
}

// What --tap reports, counted as KTAP parsers count it: the leaves (each
// engine's items, or the engine itself when it has none).
static nlohmann::json test_counts(const AllVerdict &v) {
	size_t passed = 0, failed = 0, skipped = 0;
	auto count = [&](EngineStatus s) {
		(s == EngineStatus::ok ? passed : s == EngineStatus::finding ? failed : skipped)++;
	};
	for (const auto &e : v.engines) {
		if (e.items.empty())
			count(e.status);
		for (const auto &i : e.items)
			count(i.status);
	}
	return {{"passed", passed}, {"failed", failed}, {"skipped", skipped}};
}

static nlohmann::json warns_json(const std::vector<WarnSite> &warns) {
	auto a = nlohmann::json::array();
	for (const auto &w : warns)
		a.push_back({{"site", w.site}, {"what", w.what}, {"count", w.count}, {"first", w.first}});
	return a;
}

nlohmann::json verdict_json(const AllVerdict &v) {
	const EngineInput &c = *v.ctx;
	auto engines = nlohmann::json::array();
	for (const auto &e : v.engines)
		engines.push_back({{"engine", e.name},
				   {"status", std::string(status_name(e.status))},
				   {"runs", e.runs},
				   {"note", e.note},
				   {"seconds", e.seconds},
				   {"observations", e.observations.size()}});
	auto known = nlohmann::json::array();
	for (const auto &e : v.engines)
		for (const auto &o : e.known)
			known.push_back(to_json(o));
	auto findings = nlohmann::json::array();
	for (const auto &f : v.findings) {
		auto seen = nlohmann::json::array();
		for (const auto &o : f.seen_by)
			seen.push_back(to_json(o));
		nlohmann::json j{{"key", f.key},	   {"title", f.title},
				 {"violates", f.violates}, {"seen_by", seen},
				 {"scenario", f.scenario}, {"replay", f.replay},
				 {"replay_checked", f.replay_checked}, {"replay_reproduces", f.replay_reproduces}};
		if (!f.model.empty() || !f.impl.empty())
			j["values"] = {{"model", f.model}, {"impl", f.impl}};
		findings.push_back(std::move(j));
	}
	nlohmann::json j{{"schema", "niovcheck-all/1"},
			 {"plugin", c.plugin},
			 {"plugin_name", c.plugin_name},
			 {"rules", rules_json(c.rules)},
			 {"rules_from_code", c.rules_from_code},
			 {"budget", budget_name(c.req.budget)},
			 {"cases", c.cases},
			 {"fuzz_seconds", c.fuzz_seconds},
			 {"seed", c.req.seed},
			 {"engines", engines},
			 {"findings", findings},
			 {"known_findings", known},
			 {"tests", test_counts(v)},
			 {"kernel_warns", warns_json(v.warns)},
			 {"seconds", v.seconds},
			 {"verdict", v.interrupted ? "interrupted" : v.findings.empty() ? "clean" : "finding"},
			 {"exit", v.exit_code()}};
	if (v.interrupted)
		j["interrupted_by"] = signal_name(v.interrupted);
	if (!v.kernel.empty())
		j["kernel"] = v.kernel;
	if (!v.scoreboard.empty()) {
		auto sb = nlohmann::json::object();
		for (const auto &[engine, caught] : v.scoreboard)
			sb[engine] = caught;
		j["scoreboard"] = {{"must_catch", c.must_catch}, {"caught_by", sb}};
	}
	return j;
}

std::string junit_xml(const AllVerdict &v) {
	unsigned failures = 0, skipped = 0;
	std::string cases;
	for (const auto &e : v.engines) {
		cases += fmt::format("  <testcase classname=\"niovcheck.all.engine\" name=\"{}\" time=\"{:.3f}\">\n",
				     xml_escape(e.name), e.seconds);
		if (e.status == EngineStatus::not_run) {
			cases += fmt::format("    <skipped message=\"{}\"/>\n", xml_escape(e.note));
			++skipped;
		} else if (e.status == EngineStatus::finding) {
			cases += fmt::format("    <failure message=\"{} observations\">{}</failure>\n", e.observations.size(),
					     xml_escape(e.note));
			++failures;
		}
		cases += "  </testcase>\n";
	}
	for (const auto &f : v.findings) {
		cases += fmt::format("  <testcase classname=\"niovcheck.all.finding\" name=\"{}\">\n", xml_escape(f.key));
		cases += fmt::format("    <failure message=\"{}\">seen by {} observations\nreplay: {}</failure>\n",
				     xml_escape(f.title), f.seen_by.size(), xml_escape(f.replay));
		cases += "  </testcase>\n";
		++failures;
	}
	if (v.interrupted) {
		cases += fmt::format("  <testcase classname=\"niovcheck.all\" name=\"interrupted\">\n"
				     "    <failure message=\"interrupted by {}: not a result\"/>\n  </testcase>\n",
				     signal_name(v.interrupted));
		++failures;
	}
	const size_t tests = v.engines.size() + v.findings.size() + (v.interrupted ? 1 : 0);
	return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			   "<testsuites>\n<testsuite name=\"niovcheck all {}\" tests=\"{}\" failures=\"{}\" "
			   "skipped=\"{}\" time=\"{:.3f}\">\n{}</testsuite>\n</testsuites>\n",
			   xml_escape(v.ctx->plugin_name), tests, failures, skipped, v.seconds, cases);
}

// KTAP v1 (Documentation/dev-tools/ktap.rst), as kunit.py parses it: a
// subtest per engine, nested subtests per scenario, property, fuzz target,
// lemma or swept bind; SKIP with the reason for what did not run; each
// failure's words as '#' diagnostics before its 'not ok'; the findings,
// grouped by root cause, before the first engine that saw them.
void print_tap(std::FILE *out, const AllVerdict &v) {
	auto name = [](std::string s) {  // '#' starts a directive
		for (char &c : s)
			if (c == '#' || c == '\n')
				c = ' ';
		return s;
	};
	auto diag = [&](const char *indent, const std::string &text) {
		std::istringstream lines(text);
		for (std::string l; std::getline(lines, l);)
			std::fprintf(out, "%s# %s\n", indent, l.c_str());
	};
	auto result = [&](const char *indent, size_t n, const std::string &what, EngineStatus s, const std::string &note) {
		if (s == EngineStatus::not_run) {
			std::fprintf(out, "%sok %zu %s # SKIP %s\n", indent, n, name(what).c_str(), name(note).c_str());
			return;
		}
		if (s == EngineStatus::finding && !note.empty())
			diag(indent, note);
		std::fprintf(out, "%s%s %zu %s\n", indent, s == EngineStatus::ok ? "ok" : "not ok", n, name(what).c_str());
	};
	std::fprintf(out, "KTAP version 1\n# niovcheck all: %s, %s\n1..%zu\n", tap_text(subject(v)).c_str(),
		     tap_text(rules_text(v.ctx->rules)).c_str(), v.engines.size());
	std::set<size_t> told;
	size_t n = 0;
	for (const auto &e : v.engines) {
		++n;
		if (!e.items.empty()) {
			std::fprintf(out, "  KTAP version 1\n  # Subtest: %s\n  1..%zu\n", name(e.name).c_str(), e.items.size());
			size_t k = 0;
			for (const auto &i : e.items)
				result("  ", ++k, i.name, i.status, i.note);
		}
		for (size_t f = 0; f < v.findings.size(); ++f) {
			const Finding &fi = v.findings[f];
			const bool here = std::any_of(fi.seen_by.begin(), fi.seen_by.end(),
						      [&](const Observation &o) { return o.engine == e.name; });
			if (!here || !told.insert(f).second)
				continue;
			diag("", fmt::format("finding {}: {}\n{}\nreplay: {}", f + 1, fi.key, fi.title, fi.replay));
		}
		result("", n, e.name, e.status, e.status == EngineStatus::finding && e.items.empty() ? e.note : "");
	}
	if (v.interrupted)
		std::fprintf(out, "Bail out! interrupted by %s: not a result\n", signal_name(v.interrupted).c_str());
}

namespace {

// @lead then the words of @text, in lines of at most @width columns, each
// line after the first starting with @indent; a word longer than a line
// stands alone.
std::string wrapped(const std::string &lead, const std::string &text, size_t width, const std::string &indent) {
	std::string out, line = lead;
	size_t fresh = lead.size();  // nothing but the lead or the indent yet
	std::istringstream words(text);
	for (std::string w; words >> w;) {
		if (line.size() > fresh && line.size() + 1 + w.size() > width) {
			out += line + "\n";
			line = indent;
			fresh = indent.size();
		}
		line += (line.size() == fresh ? "" : " ") + w;
	}
	return out + line + "\n";
}

// A command cut at its spaces, the lines joined by backslashes: a shell
// takes it back whole when it is pasted.
std::string command_lines(const std::string &cmd, size_t width) {
	std::string out, line = "  ";
	std::istringstream words(cmd);
	for (std::string w; words >> w;) {
		if (line.size() > 2 && line.size() + 1 + w.size() + 2 > width) {
			out += line + " \\\n";
			line = "      ";
		}
		line += (line.size() == 2 || line == "      " ? "" : " ") + w;
	}
	return out + line + "\n";
}

}  // namespace

void print_summary(std::FILE *out, const AllVerdict &v) {
	constexpr size_t kWidth = 72;
	const EngineInput &c = *v.ctx;
	std::string s = wrapped(fmt::format("niovcheck {}: ", v.kernel.empty() ? "plugin" : "kernel tree"),
				v.kernel.empty() ? c.plugin_name : v.kernel, kWidth, "  ");
	s += wrapped("rules ", c.rules.label(), kWidth, "  ");
	for (const auto &l : c.rules_from_code)
		s += wrapped("  ", l, kWidth, "    ");
	s += "\n";
	for (const auto &e : v.engines) {
		std::string what = e.runs;
		if (!e.note.empty())
			what += (what.empty() ? "" : "; ") + e.note;
		s += wrapped(fmt::format("{:<8} {:<9} ", e.name, status_name(e.status)), what, kWidth,
			     std::string(19, ' '));
	}
	s += "\n";
	if (v.interrupted) {
		s += wrapped("", fmt::format("verdict: INTERRUPTED by {} after {:.0f} s: not a result",
					     signal_name(v.interrupted), v.seconds), kWidth, "  ");
	} else if (v.findings.empty()) {
		s += fmt::format("verdict: clean, {:.0f} s\n", v.seconds);
	} else {
		s += fmt::format("verdict: {} finding{}, {:.0f} s\n", v.findings.size(),
				 v.findings.size() == 1 ? "" : "s", v.seconds);
		for (size_t i = 0; i < v.findings.size(); ++i) {
			const Finding &f = v.findings[i];
			s += "\n" + wrapped(fmt::format("{}. ", i + 1), f.key, kWidth, "   ");
			s += wrapped("   ", f.title, kWidth, "   ");
			if (!f.replay.empty())
				s += command_lines(f.replay, kWidth);
		}
	}
	std::fputs(s.c_str(), out);
}

}  // namespace niov::cli
