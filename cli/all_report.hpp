// The verdict of `niovcheck all` as text, JSON (niovcheck-all/1), JUnit XML
// (one testcase per engine and per finding) and TAP 13 (kselftest-style
// runners read it).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "all_types.hpp"
#include "engines/engine.hpp"
#include "kernel_warns.hpp"

namespace niov::cli {

struct AllVerdict {
	const EngineInput *ctx = nullptr;
	std::vector<EngineResult> engines;
	std::vector<Finding> findings;
	std::string kernel;	  // the tree, for --kernel runs
	// The scoreboard row of a variant: engine -> caught its must_catch?
	std::vector<std::pair<std::string, bool>> scoreboard;
	std::vector<WarnSite> warns;  // kernel WARNs, per site (kernel_warns.hpp)
	double seconds = 0;
	int interrupted = 0;	  // the signal that stopped the run (0: it finished)
	// A run that did not finish is never clean: 128 + the signal, as a shell says it.
	int exit_code() const { return interrupted ? 128 + interrupted : findings.empty() ? 0 : 1; }
};

void print_text(std::FILE *out, const AllVerdict &v);
nlohmann::json verdict_json(const AllVerdict &v);
std::string junit_xml(const AllVerdict &v);
void print_tap(std::FILE *out, const AllVerdict &v);
// A plain-text summary to paste into a cover letter or a reply on the list:
// the tree or plugin, the rules, one line per engine, the findings and
// their replay commands, no line past 72 columns.
void print_summary(std::FILE *out, const AllVerdict &v);

// @s as XML attribute or text: &, <, > and " escaped, control bytes
// other than newline and tab dropped (JUnit readers reject them).
std::string xml_escape(const std::string &s);

}  // namespace niov::cli
