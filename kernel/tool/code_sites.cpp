#include "code_sites.hpp"

#include "c_source.hpp"

namespace niov::kernel {

namespace {

struct Site {
	const char *answer_class;
	bool in_datagram;
	const char *functions[2];  // the first one the tree defines
};

constexpr Site kSites[] = {
	{"bind", false, {"net_devmem_bind_dmabuf", nullptr}},
	{"rx queue", false, {"net_devmem_bind_dmabuf_to_queue", nullptr}},
	{"lookup", false, {"net_devmem_get_niov_at", nullptr}},
	{"frags", true, {"zerocopy_fill_skb_from_devmem", nullptr}},
	{"truesize", true, {"zerocopy_fill_skb_from_devmem", nullptr}},
	{"rx alloc", false, {"net_devmem_alloc_dmabuf_bulk", "net_devmem_alloc_dmabuf"}},
	{"pp_init", false, {"mp_dmabuf_devmem_init", nullptr}},
};

}  // namespace

std::string code_sites(const std::string &devmem_c, const std::string &datagram_c) {
	std::string out;
	for (const auto &s : kSites) {
		const std::string &text = s.in_datagram ? datagram_c : devmem_c;
		for (const char *fn : s.functions) {
			if (!fn)
				break;
			const auto f = find_definition(text, fn);
			if (!f)
				continue;
			const std::size_t name_at = text.find(fn, f->begin);
			out += std::string(out.empty() ? "" : ";") + s.answer_class + "=" +
			       (s.in_datagram ? "net/core/datagram.c:" : "net/core/devmem.c:") +
			       std::to_string(line_of(text, name_at)) + " " + fn + "()";
			break;
		}
	}
	return out;
}

}  // namespace niov::kernel
