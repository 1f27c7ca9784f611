// The scenario of the running case, kept when the case fails so the runner
// can write the shrunk counterexample as a scenario file.
#pragma once

#include <optional>
#include <string>

#include "scenario.hpp"

namespace niov::props {

struct FailedCase {
	Scenario scenario;
	std::string impl_path;	// the plugin that answered; empty: the model alone
};

// Declare right after the scenario (or the object owning it) in a property
// body: if the case unwinds (a failed RC_ASSERT, or any exception), the
// scenario is copied while it still exists.
class CaseGuard {
public:
	CaseGuard(const Scenario &sc, std::string impl_path);
	~CaseGuard();
	CaseGuard(const CaseGuard &) = delete;
	CaseGuard &operator=(const CaseGuard &) = delete;

private:
	const Scenario &sc_;
	std::string impl_path_;
	int uncaught_;
	double start_ = 0;  // $NIOV_PROPS_PROFILE: when the case started
};

// $NIOV_PROPS_PROFILE set: the slowest case of the run (time from the
// CaseGuard to its end), for finding what makes a property slow.
struct SlowCase {
	double seconds = 0;
	Scenario scenario;
};
bool profiling();
std::optional<SlowCase> &slowest_case();

// A worker in record mode (worker::Limits::record_cases) keeps the text of
// the running case in its breadcrumb, so a case that kills its worker can
// still be written as a scenario file.  CaseGuard records its scenario; code
// that grows a case as it runs (the TCP harness) records it again.
void record_case(const Scenario &sc);

// The case the last unwinding CaseGuard saw (discards included: the runner
// keeps only what a failing case left).
std::optional<FailedCase> &unwound_case();

}  // namespace niov::props
