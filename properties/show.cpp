#include "show.hpp"

namespace niov {

void showValue(const Scenario &sc, std::ostream &os) {
	os << "\n" << serialize_scenario(sc);
	if (!sc.name.empty())
		os << "# generated as " << sc.name << "\n";
}

}  // namespace niov
