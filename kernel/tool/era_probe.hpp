// The era of a kernel tree, told by the signatures its devmem code has
// (never by a version number: backports and net-next move them).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rule_choices.hpp"

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
	std::string rules;	 // the era's first preset (the oldest rules it can have)
	// The presets code of this era may follow, oldest first; the rules in
	// force are the one the code's choices fit best, plus the choices that
	// differ from it (kernel/builder/kernel_rules.cpp).
	std::vector<std::string> presets;
	RuleChoices choices;	 // read off the code (rule_choices.hpp)
	std::string adapter;	 // kernel/adapters/<file>
	std::vector<std::string> defines;  // -D flags for the adapter
	// -D flags for every unit compiled against the tree (runtime too): the
	// optional pieces the tree's headers have or lack (tree_features()).
	std::vector<std::string> unit_defines;
	std::vector<std::string> features;  // the same, one line each for people
	bool has_fill = false;	 // zerocopy_fill_skb_from_devmem() found in net/core/datagram.c
	bool uses_genalloc = false;
	bool has_mp_ops = true;	 // devmem.c hands page_pool a memory_provider_ops table
	std::string bind_signature;  // the tree's net_devmem_bind_dmabuf() parameters
};

// Reads @tree/net/core/devmem.c (and devmem.h, datagram.c); throws
// KernelTreeError naming the signatures found when the era is unknown.
EraProbe probe_era(const std::string &tree);

// The optional pieces a tree's headers have or lack, as -D flags for every
// unit (NIOV_K_NETMEM_DESC, NIOV_K_NETMEM_OUTLINE_GET, NIOV_K_NO_MP_OPS,
// NIOV_K_NEED_NET_IOV_INIT), with a line each saying what was found.
// Probed on the text, never on a version number.
void tree_features(const std::string &tree, EraProbe &p);

// Whether @body (a bind's text) checks the dmabuf size or the sg lengths for
// alignment: the May 2026 fix in the gen_pool era.
bool has_size_or_sg_check(const std::string &body);

// A tree's file (or a plugin read for its ASan runtime): "" when it does
// not exist; niov::FileError (one line, exit 2) when it is not a regular
// file (a FIFO, a symlink to /dev/zero), cannot be read or is larger than
// kTreeFileLimit.
inline constexpr uint64_t kTreeFileLimit = uint64_t{64} << 20;
std::string read_file_or_empty(const std::string &path);

}  // namespace niov::kernel
