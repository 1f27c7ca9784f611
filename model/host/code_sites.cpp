#include "code_sites.hpp"

#include <algorithm>

namespace niov {

std::string code_site(std::string_view all, std::string_view answer_class) {
	for (size_t at = 0; at < all.size();) {
		const size_t end = std::min(all.find(';', at), all.size());
		const std::string_view entry = all.substr(at, end - at);
		const size_t eq = entry.find('=');
		if (eq != std::string_view::npos && entry.substr(0, eq) == answer_class)
			return std::string(entry.substr(eq + 1));
		at = end + 1;
	}
	return "";
}

}  // namespace niov
