#include "case_record.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>

#include "breadcrumb.hpp"

namespace niov::props {

std::optional<FailedCase> &unwound_case() {
	static thread_local std::optional<FailedCase> slot;
	return slot;
}

namespace {

double now() {
	return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool profiling() {
	static const bool on = [] {
		const char *e = std::getenv("NIOV_PROPS_PROFILE");
		return e && *e;
	}();
	return on;
}

std::optional<SlowCase> &slowest_case() {
	static thread_local std::optional<SlowCase> slot;
	return slot;
}

void record_case(const Scenario &sc) {
	Breadcrumb &b = breadcrumb();
	if (!b.record_cases)
		return;
	const std::string text = serialize_scenario(sc);
	crumb_set(b.case_text, text);
	b.case_len = static_cast<uint32_t>(std::min(text.size(), sizeof(b.case_text) - 1));
	b.case_truncated = text.size() >= sizeof(b.case_text);
}

CaseGuard::CaseGuard(const Scenario &sc, std::string impl_path)
	: sc_(sc), impl_path_(std::move(impl_path)), uncaught_(std::uncaught_exceptions()),
	  start_(profiling() ? now() : 0) {
	++breadcrumb().case_no;
	record_case(sc);
}

CaseGuard::~CaseGuard() {
	if (std::uncaught_exceptions() > uncaught_)
		unwound_case() = FailedCase{sc_, impl_path_};
	if (profiling()) {
		const double took = now() - start_;
		auto &slow = slowest_case();
		if (!slow || took > slow->seconds)
			slow = SlowCase{took, sc_};
	}
}

}  // namespace niov::props
