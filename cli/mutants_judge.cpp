// One classification of a finding for every scoreboard engine (mutants.hpp).
#include <algorithm>
#include <iterator>

#include "mutants.hpp"

namespace niov::cli {

Judged judge_finding(const Variant &v, const std::string &id) {
	Judged j;
	j.caught = v.caught_by(id);
	const bool breach =
		std::find(std::begin(worker::kFaultIds), std::end(worker::kFaultIds), id) != std::end(worker::kFaultIds);
	j.fault = breach && !j.caught;
	return j;
}

}  // namespace niov::cli
