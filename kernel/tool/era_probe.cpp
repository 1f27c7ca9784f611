#include "era_probe.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "bounded_file.hpp"
#include "c_source.hpp"
#include "code_sites.hpp"

namespace niov::kernel {

std::string read_file_or_empty(const std::string &path) {
	return read_bounded_if_exists(path, kTreeFileLimit).value_or("");
}

namespace {

std::string join(const std::vector<std::string> &v, const char *sep) {
	std::string out;
	for (const auto &s : v) out += (out.empty() ? "" : sep) + s;
	return out;
}


// What the adapter passes for each parameter of the tree's bind, by type
// and name, so a reordered or extended signature still binds; "" when a
// parameter means nothing to the adapter.
std::string bind_argument(const std::string &p) {
	const std::string name = param_name(p);
	if (p.find("struct net_device *") == 0 || p.find("struct net_device*") == 0) return "dev";
	if (p.find("struct device") == 0) return "dma_dev";
	if (p.find("enum dma_data_direction") == 0) return "direction";
	if (p.find("struct netdev_nl_sock") == 0) return "priv";
	if (p.find("struct sock *") == 0 || p.find("struct sock*") == 0) return "nl_sk";
	if (p.find("struct netlink_ext_ack") == 0) return "extack";
	if (name == "niov_shift") return "niov_shift";
	if (name.find("fd") != std::string::npos) return "dmabuf_fd";
	if (name == "vdev") return "NULL";
	return "";
}

}  // namespace

EraProbe probe_era(const std::string &tree) {
	const std::string devmem_c = read_file_or_empty(tree + "/net/core/devmem.c");
	if (devmem_c.empty())
		throw KernelTreeError(tree + ": no net/core/devmem.c (not a kernel tree with devmem TCP)");
	const std::string devmem_h = read_file_or_empty(tree + "/net/core/devmem.h");
	const std::string datagram = read_file_or_empty(tree + "/net/core/datagram.c");

	const auto bind = find_definition(devmem_c, "net_devmem_bind_dmabuf");
	const auto to_queue = find_definition(devmem_c, "net_devmem_bind_dmabuf_to_queue");
	const auto niov_at = find_definition(devmem_c, "net_devmem_get_niov_at");
	const auto bulk = find_definition(devmem_c, "net_devmem_alloc_dmabuf_bulk");
	const auto fill = find_definition(datagram, "zerocopy_fill_skb_from_devmem");
	const bool genpool = devmem_c.find("gen_pool_create") != std::string::npos;

	auto found = [&] {
		std::vector<std::string> s;
		s.push_back(bind ? "net_devmem_bind_dmabuf(" + join(bind->params, ", ") + ")"
				 : "no net_devmem_bind_dmabuf()");
		s.push_back(std::string(niov_at ? "" : "no ") + "net_devmem_get_niov_at()");
		s.push_back(std::string(to_queue ? "" : "no ") + "net_devmem_bind_dmabuf_to_queue()");
		s.push_back(std::string(genpool ? "gen_pool" : "no gen_pool"));
		s.push_back(std::string(bulk ? "" : "no ") + "net_devmem_alloc_dmabuf_bulk()");
		return join(s, ", ");
	};
	// What a tree the probe cannot take differs in from the nearest era it
	// knows, and where such a change goes, so the one line says what to do.
	auto advice = [&](const std::string &bad_param) -> std::string {
		if (!bad_param.empty())
			return "a new bind parameter is passed by bind_argument() in kernel/tool/era_probe.cpp (and, if the "
			       "code reads it, supplied by kernel/runtime/): kernel/README.md, \"Eras\"";
		if (!bind || !to_queue)
			return "a renamed bind or bind-to-queue is looked up in probe_era(), kernel/tool/era_probe.cpp: "
			       "kernel/README.md, \"Trees drift\"";
		struct Known {
			const char *name;
			bool direction, shift, genpool, niov_at, bulk;
		};
		static const Known eras[] = {{"(a) gen_pool RX only", false, false, true, false, false},
					     {"(b) gen_pool with TX", true, false, true, true, false},
					     {"(c) niov_shift on gen_pool", true, true, true, true, false},
					     {"(c) niov_shift with a freelist", true, true, false, true, true}};
		bool direction = false, shift = false;
		for (const auto &q : bind->params) {
			direction |= bind_argument(q) == "direction";
			shift |= bind_argument(q) == "niov_shift";
		}
		const bool have[] = {direction, shift, genpool, niov_at.has_value(), bulk.has_value()};
		static const char *what[] = {"a direction parameter", "a niov_shift parameter", "gen_pool",
					     "net_devmem_get_niov_at()", "net_devmem_alloc_dmabuf_bulk()"};
		const Known *best = nullptr;
		std::string diff;
		size_t best_count = 0;
		for (const auto &e : eras) {
			const bool want[] = {e.direction, e.shift, e.genpool, e.niov_at, e.bulk};
			std::vector<std::string> d;
			for (int i = 0; i < 5; i++)
				if (want[i] != have[i])
					d.push_back((want[i] ? "lacks " : "has ") + std::string(what[i]));
			if (!best || d.size() < best_count) {
				best = &e;
				best_count = d.size();
				diff = join(d, ", ");
			}
		}
		return std::string("nearest known era ") + best->name + ": this tree " + diff +
		       "; an era's adapter is chosen in probe_era() and written in kernel/adapters/ (kernel/README.md, "
		       "\"Eras\")";
	};
	auto unknown = [&](const std::string &why, const std::string &bad_param = "") {
		return KernelTreeError(tree + ": unknown devmem era (" + why + "); found: " + found() + "; " +
				       advice(bad_param));
	};
	if (!bind || !to_queue) throw unknown("no bind or bind-to-queue definition");

	EraProbe p;
	p.bind_signature = join(bind->params, ", ");
	std::vector<std::string> args;
	bool has_direction = false, has_shift = false;
	for (const auto &param : bind->params) {
		const std::string a = bind_argument(param);
		if (a.empty()) throw unknown("bind parameter '" + param + "' is not one the adapters know", param);
		has_direction |= a == "direction";
		has_shift |= a == "niov_shift";
		args.push_back(a);
	}
	p.defines.push_back("NIOV_K_BIND_ARGS=" + join(args, ","));
	if (devmem_c.find("owner->area.") != std::string::npos)
		p.defines.push_back("NIOV_K_OWNER_AREA=1");
	p.has_fill = fill.has_value();
	if (p.has_fill) p.defines.push_back("NIOV_K_HAVE_FILL=1");

	if (!has_direction) {
		if (!genpool || niov_at) throw unknown("an RX-only bind outside the gen_pool era");
		p.era = Era::genpool_rx;
		p.letter = "a";
		p.name = "(a) gen_pool, RX only (6.12 LTS)";
		p.rules = "linux-6.12";
		p.presets = {p.rules};
		p.adapter = "genpool_rx.c";
	} else if (!has_shift) {
		if (!genpool || !niov_at) throw unknown("a TX bind without gen_pool or get_niov_at");
		p.era = Era::genpool_tx;
		p.letter = "b";
		p.name = "(b) gen_pool with the TX path (6.14 - 7.0)";
		// The era's rules: after the May 2026 fix, or the same era before it.
		const bool fixed = has_size_or_sg_check(devmem_c.substr(bind->begin, bind->end - bind->begin));
		p.rules = fixed ? "baseline" : "baseline-unfixed";
		p.presets = {p.rules};
		p.name += fixed ? ", with the May 2026 size/sg-length checks"
				: ", before the May 2026 size/sg-length fix";
		p.adapter = "genpool_tx.c";
	} else if (bulk || !genpool) {
		if (!niov_at || !bulk) throw unknown("a niov_shift bind without get_niov_at or the freelist allocator");
		p.era = Era::shift_freelist;
		p.letter = "c";
		p.name = "(c) niov_shift bind, freelist area (rx-buf-size, net-next)";
		p.rules = "net-next";
		p.presets = {"net-next", "tx-autosize"};
		p.adapter = "shift_freelist.c";
	} else {
		if (!niov_at) throw unknown("a niov_shift bind without get_niov_at");
		p.era = Era::shift_genpool;
		p.letter = "c";
		p.name = "(c) niov_shift bind on gen_pool (rx-buf-size series)";
		p.rules = "net-next";
		p.presets = {"net-next", "tx-autosize"};
		p.adapter = "genpool_tx.c";
		p.defines.push_back("NIOV_K_SHIFT_BIND=1");
	}
	p.uses_genalloc = genpool;
	const std::string genl = read_file_or_empty(tree + "/net/core/netdev-genl.c");
	p.choices = read_rule_choices({devmem_c, datagram, genl}, bind->params);
	// The shift bind-tx passes: the bind sizes TX niovs itself when it is 0.
	p.defines.push_back("NIOV_K_CODE_SITES=\"" + code_sites(devmem_c, datagram) + "\"");
	if (has_shift) {
		p.defines.push_back("NIOV_K_TX_SHIFT_ARG=" + p.choices.tx_shift_arg);
		const auto *rx = p.choices.find("rx_attr");
		if (!rx || rx->value == "present") p.defines.push_back("NIOV_K_RX_ATTR=1");
	}
	tree_features(tree, p);
	return p;
}

bool has_size_or_sg_check(const std::string &body) {
	static const std::regex check(R"(ALIGNED\s*\(\s*(dmabuf->size|len)\b)");
	return std::regex_search(blank_comments_and_literals(body), check);
}

void tree_features(const std::string &tree, EraProbe &p) {
	const std::string netmem = blank_comments_and_literals(read_file_or_empty(tree + "/include/net/netmem.h"));
	const std::string devmem_h = blank_comments_and_literals(read_file_or_empty(tree + "/net/core/devmem.h"));
	const std::string devmem_c = blank_comments_and_literals(read_file_or_empty(tree + "/net/core/devmem.c"));
	auto feature = [&](bool on, const char *define, const std::string &yes, const std::string &no) {
		if (on) p.unit_defines.push_back(std::string(define) + "=1");
		p.features.push_back(on ? yes : no);
	};
	static const std::regex desc(R"(struct\s+netmem_desc\s+desc\s*;)");
	feature(std::regex_search(netmem, desc), "NIOV_K_NETMEM_DESC",
		"net_iov fields inside a struct netmem_desc (niov->desc.pp)", "net_iov fields at top level (niov->pp)");
	feature(netmem.find("__get_netmem") != std::string::npos, "NIOV_K_NETMEM_OUTLINE_GET",
		"get_netmem() inline over __get_netmem()", "get_netmem() out of line");
	// Before the memory-provider hooks (mainline up to 6.13, 6.12.y without
	// their backport) page_pool called devmem's provider functions itself
	// whenever a queue's mp_priv was set: there is no ops table to hand the
	// fake page_pool, and no memory_provider.h to take from the tree.
	p.has_mp_ops = devmem_c.find("memory_provider_ops") != std::string::npos;
	feature(!p.has_mp_ops, "NIOV_K_NO_MP_OPS",
		"no memory_provider_ops: the page_pool calls mp_dmabuf_devmem_*() itself (before 6.14)",
		"the provider's memory_provider_ops table");
	const bool calls_init = devmem_c.find("net_iov_init") != std::string::npos;
	const bool has_init = netmem.find("net_iov_init") != std::string::npos ||
			      devmem_h.find("net_iov_init") != std::string::npos;
	const std::string datagram = blank_comments_and_literals(read_file_or_empty(tree + "/net/core/datagram.c"));
	if (datagram.find("netmem_inc_ref") != std::string::npos)
		feature(netmem.find("netmem_inc_ref") == std::string::npos, "NIOV_K_NEED_NETMEM_INC_REF",
			"netmem_inc_ref() called by the fill but not defined by the tree's headers: the adapter's stands in",
			"netmem_inc_ref() from the tree's headers");
	if (calls_init)
		feature(!has_init, "NIOV_K_NEED_NET_IOV_INIT",
			"net_iov_init() called but not defined by the tree's headers: the shim's stands in",
			"net_iov_init() from the tree's headers");
}

}  // namespace niov::kernel
