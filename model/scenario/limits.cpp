#include "limits.hpp"

#include <fmt/format.h>

namespace niov {

std::string limit_message(std::string_view file, uint32_t line, std::string_view what, uint64_t limit,
			  std::string_view unit) {
	return fmt::format("{}:{}: {} exceeds {}{}{} (limit)", file, line, what, limit, unit.empty() ? "" : " ",
			   unit);
}

}  // namespace niov
