// A plugin's word on where its answers come from (ABI v3 ops->code_sites):
// "bind=net/core/devmem.c:190 net_devmem_bind_dmabuf();lookup=...", one
// entry per answer class.  Read by the loader and by the reports.
#pragma once

#include <string>
#include <string_view>

namespace niov {

// Where @code_sites says answers of @answer_class come from, "" if it does
// not.
std::string code_site(std::string_view code_sites, std::string_view answer_class);

}  // namespace niov
