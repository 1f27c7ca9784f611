// Where a tree's code gives each kind of answer the engines compare (the
// bind, the queue, the lookup, the fill's frags and charges, the RX
// allocator, the provider's init), as "CLASS=FILE:LINE FUNCTION()" entries
// joined by ';' for the plugin's ops->code_sites: a difference in a
// report then names the tree's function and line, not only the model's
// step.
#pragma once

#include <string>

namespace niov::kernel {

// @devmem_c, @datagram_c: the files' text, named as in the tree.
std::string code_sites(const std::string &devmem_c, const std::string &datagram_c);

}  // namespace niov::kernel
