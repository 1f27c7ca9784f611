// The era of a kernel tree, told by the signatures its devmem code has
// (never by a version number: backports and net-next move them).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace niov::kernel {

// A tree the suite cannot take; the message is one line for the user.
struct KernelTreeError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

enum class Era {
	genpool_rx,	   // (a) gen_pool, RX only: bind(dev, fd, extack)          (6.12 LTS)
	genpool_tx,	   // (b) gen_pool + TX: direction, tx_vec, get_niov_at       (6.14-7.0)
	shift_genpool,	   // (c) bind with niov_shift, gen_pool chunks               (rx-buf-size series)
	shift_freelist,	   // (c) bind with niov_shift, one area and a freelist       (net-next 2026)
};

struct EraProbe {
	Era era{};
	std::string letter;	 // "a", "b", "c"
	std::string name;	 // one line for people
	std::string rules;	 // the preset the era is checked against
	std::string adapter;	 // kernel/adapters/<file>
	std::vector<std::string> defines;  // -D flags for the adapter
	bool has_fill = false;	 // zerocopy_fill_skb_from_devmem() found in net/core/datagram.c
	bool uses_genalloc = false;
	std::string bind_signature;  // the tree's net_devmem_bind_dmabuf() parameters
};

// Reads @tree/net/core/devmem.c (and devmem.h, datagram.c); throws
// KernelTreeError naming the signatures found when the era is unknown.
EraProbe probe_era(const std::string &tree);

std::string read_file_or_empty(const std::string &path);

}  // namespace niov::kernel
