#include "caps.hpp"

#include "../../plugins/include/niov_impl.h"

namespace niov {

namespace {

struct CapName {
	uint32_t cap;
	const char *name;
};

constexpr CapName kCapNames[] = {
	{NIOV_CAP_TX, "TX"},
	{NIOV_CAP_RX, "RX"},
	{NIOV_CAP_RX_BUF_SIZE, "rx-buf-size"},
	{NIOV_CAP_LOOKUP, "lookup"},
	{NIOV_CAP_FILL, "fill"},
	{NIOV_CAP_ZCRX, "zcrx"},
	{NIOV_CAP_RX_ALLOC, "RX allocator"},
	{NIOV_CAP_PP_INIT, "page_pool init"},
	{NIOV_CAP_TX_DESC, "TX descriptors"},
	{NIOV_CAP_FAULTS, "fault injection"},
};

}  // namespace

std::string cap_names(uint32_t caps) {
	std::string out;
	for (const auto &c : kCapNames)
		if (caps & c.cap)
			out += (out.empty() ? "" : ", ") + std::string(c.name);
	return out;
}

uint32_t bind_caps(const Scenario &sc) {
	switch (sc.dir) {
	case Dir::tx:
		return NIOV_CAP_TX;
	case Dir::rx:
		return NIOV_CAP_RX | (sc.rx_buf_size ? uint32_t{NIOV_CAP_RX_BUF_SIZE} : 0u);
	case Dir::zcrx:
		return NIOV_CAP_ZCRX;
	}
	return 0;
}

std::string lacking(uint32_t needed, uint32_t have) {
	const uint32_t missing = needed & ~have;
	return missing ? "plugin lacks " + cap_names(missing) : std::string();
}

}  // namespace niov
