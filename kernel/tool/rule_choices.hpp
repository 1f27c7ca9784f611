// The rule choices a tree's code makes, read where the code states them:
// the niov shift netlink's bind handlers pass, the bind's branch that sizes
// TX niovs itself (its cap, whether it looks at DMA addresses), the
// lookup's granularity, what the TX fill charges to truesize and whether it
// clamps frags to the device's limit.  Each is a policy of model/RULES.md,
// with the file:line that states it.  Never read off the code's behaviour:
// a broken sizing loop must be judged as a broken sizing loop, not taken
// for other rules.  What the text does not say plainly is ambiguous, and
// the user settles it with --rules/--policy.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace niov::kernel {

struct RuleChoice {
	std::string key;       // a policy of model/RULES.md ("truesize")
	std::string value;     // its value ("len")
	std::string evidence;  // "net/core/datagram.c:738: the fill charges the frag's length (size)"
};

struct RuleChoices {
	std::vector<RuleChoice> read;
	std::vector<std::string> ambiguous;  // one line each, file:line first
	std::vector<std::string> notes;	     // what was read that selects no policy
	// What the TX handler passes for the niov shift: a C expression the
	// adapter passes on ("PAGE_SHIFT", "0").
	std::string tx_shift_arg = "PAGE_SHIFT";

	const RuleChoice *find(const std::string &key) const;
};

// The text of the tree the reading needs, so tests can feed strings.
struct TreeText {
	std::string devmem_c, datagram_c, netdev_genl_c;
};

// @bind_params: the tree's net_devmem_bind_dmabuf() parameters; the niov
// shift is the one named niov_shift (none: the era binds at PAGE_SHIFT).
RuleChoices read_rule_choices(const TreeText &t, const std::vector<std::string> &bind_params);

}  // namespace niov::kernel
