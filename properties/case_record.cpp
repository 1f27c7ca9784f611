#include "case_record.hpp"

#include <exception>

namespace niov::props {

std::optional<FailedCase> &unwound_case() {
	static thread_local std::optional<FailedCase> slot;
	return slot;
}

CaseGuard::CaseGuard(const Scenario &sc, std::string impl_path)
	: sc_(sc), impl_path_(std::move(impl_path)), uncaught_(std::uncaught_exceptions()) {}

CaseGuard::~CaseGuard() {
	if (std::uncaught_exceptions() > uncaught_)
		unwound_case() = FailedCase{sc_, impl_path_};
}

}  // namespace niov::props
