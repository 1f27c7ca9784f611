// `prove --matrix`: the soundness table of the seed 000 series.  Starting
// from the net-next rules, every combination of patch 2 (truesize=len),
// patch 3 (lookup=niov), patches 4-5 (max_frag=device) and patch 6
// (tx_niov=auto) is checked with the whole lemma catalogue, per device
// profile and page size.  A cell is `ok` when every lemma is proved, else it
// names the invariant families with counterexamples; the pairwise section
// answers "is patch P safe without patch Q".
#pragma once

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "prove.hpp"

namespace niov::smt {

struct MatrixCell {
	unsigned mask = 0;  // bit i: patch i of kPatches applied (the series table)
	Preset preset = Preset::net_next;  // the era table
	unsigned page_shift = 12;
	Device dev = Device::none;
	std::set<std::string> failing;	// invariant ids with counterexamples
	bool unknown = false;
};

struct MatrixResult {
	std::vector<MatrixCell> cells;
	// Each era's own rules (every preset), the same lemmas; families an era
	// has no path for are not applicable there.
	std::vector<MatrixCell> eras;
	std::vector<std::string> era_not_applicable;  // "linux-6.12: ...", once per preset
	unsigned queries = 0, configs = 0;
	double cpu_s = 0, wall_s = 0;
	bool ok = true;	 // no unknowns (counterexamples are the table's content)
};

struct Patch {
	const char *name;
	const char *policy;  // key=value on the net-next rules
};
inline constexpr Patch kPatches[] = {
	{"2", "truesize=len"}, {"3", "lookup=niov"}, {"4-5", "max_frag=device"}, {"6", "tx_niov=auto"}};
inline constexpr unsigned kNumPatches = 4;

Policies matrix_policies(unsigned mask);
MatrixResult run_matrix(const ProveOptions &o);
nlohmann::json matrix_json(const MatrixResult &m);
void print_matrix(std::FILE *out, const MatrixResult &m);

}  // namespace niov::smt
