#include "counterexample.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "findings.hpp"
#include "report.hpp"

namespace niov::smt {

CexReport counterexample_report(const Lemma &lemma, const Point &point, const Assignment &a,
				const std::vector<std::string> &header, bool expected) {
	CexReport r;
	if (!lemma.scenario)
		return r;
	In<Concrete> in(a.source());
	auto sc = lemma.scenario(point, in);
	if (!sc)
		return r;
	r.has_scenario = true;
	sc->name = lemma.id;
	const RunReport run = run_scenario(*sc, nullptr);
	for (const auto &v : run.model.violations)
		r.violations.push_back(v.invariant);
	std::sort(r.violations.begin(), r.violations.end());
	r.violations.erase(std::unique(r.violations.begin(), r.violations.end()), r.violations.end());
	const std::string want(id(lemma.inv));
	r.confirmed = std::find(r.violations.begin(), r.violations.end(), want) != r.violations.end();
	r.known_finding = r.confirmed && is_known_finding(*sc, lemma.inv);
	if (expected)
		sc->expect_violations = r.violations;
	for (const auto &line : header)
		r.text += "# " + line + "\n";
	r.text += serialize_scenario(*sc);
	return r;
}

void write_counterexample(CexReport &r, const std::string &dir, const std::string &base) {
	std::filesystem::create_directories(dir);
	const std::string path = (std::filesystem::path(dir) / (base + ".scn")).string();
	std::ofstream f(path, std::ios::trunc);
	f << r.text;
	f.close();
	if (!f)
		throw std::runtime_error("cannot write " + path);
	r.file = path;
}

}  // namespace niov::smt
