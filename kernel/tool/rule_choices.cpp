#include "rule_choices.hpp"

#include <cctype>
#include <regex>

#include "c_source.hpp"

namespace niov::kernel {

namespace {

const char kDevmem[] = "net/core/devmem.c";
const char kDatagram[] = "net/core/datagram.c";
const char kGenl[] = "net/core/netdev-genl.c";

std::string where(const char *file, std::size_t line) { return std::string(file) + ":" + std::to_string(line); }


// The body of @f in @text ("" when absent).
std::string body_of(const std::string &text, const std::optional<CFunction> &f) {
	return f ? text.substr(f->begin, f->end - f->begin) : std::string();
}

// "64K", "1M": a size as the policy parser writes it.
std::string size_word(unsigned long long bytes) {
	if (bytes && bytes % (1ULL << 20) == 0) return std::to_string(bytes >> 20) + "M";
	if (bytes && bytes % (1ULL << 10) == 0) return std::to_string(bytes >> 10) + "K";
	return std::to_string(bytes);
}

// The first size the auto-size branch starts from: SZ_2M, 1UL << 21, 2097152.
std::optional<unsigned long long> first_size(const std::string &block) {
	static const std::regex sz(R"(=\s*\(?\s*(?:SZ_(\d+)([KMG])\b|1U?L{0,2}\s*<<\s*(\d+)|(0x[0-9a-fA-F]+|\d+)U?L{0,2})\s*\)?\s*;)");
	std::smatch m;
	if (!std::regex_search(block, m, sz)) return std::nullopt;
	if (m[1].matched) {
		const unsigned long long n = std::stoull(m[1].str());
		const char u = m[2].str()[0];
		return n << (u == 'K' ? 10 : u == 'M' ? 20 : 30);
	}
	if (m[3].matched) return 1ULL << std::stoul(m[3].str());
	return std::stoull(m[4].str(), nullptr, 0);
}

struct Reader {
	const TreeText &t;
	RuleChoices out;

	void choose(const std::string &key, const std::string &value, const std::string &evidence) {
		out.read.push_back({key, value, evidence});
	}

	// The niov-shift argument of the bind call in handler @name, or nullopt
	// (with an ambiguity said) when the text does not give one.
	std::optional<std::pair<std::string, std::size_t>> shift_arg(const char *name, std::size_t shift_idx,
								     std::size_t nparams) {
		const auto h = find_definition(t.netdev_genl_c, name);
		if (!h) {
			out.ambiguous.push_back(std::string(kGenl) + ": no " + name + "(): which niov shift its binds ask for is unknown");
			return std::nullopt;
		}
		const auto calls = find_calls(t.netdev_genl_c, "net_devmem_bind_dmabuf", h->begin, h->end);
		if (calls.empty()) {
			out.ambiguous.push_back(where(kGenl, h->line) + ": " + name + "() calls no net_devmem_bind_dmabuf()");
			return std::nullopt;
		}
		const CCall &c = calls.front();
		if (c.args.size() != nparams) {
			out.ambiguous.push_back(where(kGenl, c.line) + ": " + name + "() passes " +
						std::to_string(c.args.size()) + " arguments to net_devmem_bind_dmabuf(), which takes " +
						std::to_string(nparams));
			return std::nullopt;
		}
		return std::make_pair(c.args[shift_idx], c.line);
	}

	void tx_sizing(std::size_t shift_idx, std::size_t nparams) {
		const auto a = shift_arg("netdev_nl_bind_tx_doit", shift_idx, nparams);
		if (!a) return;
		const auto &[arg, line] = *a;
		const std::string at = where(kGenl, line);
		if (arg == "PAGE_SHIFT") {
			choose("tx_niov", "page", at + ": bind-tx passes PAGE_SHIFT: TX niovs are pages");
			return;
		}
		if (arg != "0") {
			out.ambiguous.push_back(at + ": bind-tx passes '" + arg +
						"' as the niov shift: neither PAGE_SHIFT (page-sized TX niovs) nor 0 (sized from the dmabuf)");
			return;
		}
		out.tx_shift_arg = "0";
		auto_branch(at);
	}

	// bind-tx asks the bind to size TX niovs itself: its branch for a zero
	// shift says from where it starts halving and what it looks at.
	void auto_branch(const std::string &caller) {
		const std::string code = blank_comments_and_literals(t.devmem_c);
		const auto bind = find_definition(t.devmem_c, "net_devmem_bind_dmabuf");
		const std::string body = body_of(code, bind);
		static const std::regex zero(R"(if\s*\(\s*(?:!\s*niov_shift|niov_shift\s*==\s*0|0\s*==\s*niov_shift)\s*\)\s*\{)");
		std::smatch m;
		if (!bind || !std::regex_search(body, m, zero)) {
			choose("tx_niov", "auto",
			       caller + ": bind-tx passes 0, asking the bind to size TX niovs from the dmabuf; " +
				       std::string(kDevmem) + " has no branch for a zero niov_shift");
			return;
		}
		const std::size_t open = bind->begin + static_cast<std::size_t>(m.position(0) + m.length(0)) - 1;
		std::size_t depth = 0, close = open;
		for (; close < code.size(); close++) {
			if (code[close] == '{') depth++;
			else if (code[close] == '}' && --depth == 0) break;
		}
		const std::string block = code.substr(open, close - open + 1);
		const std::string at = where(kDevmem, line_of(t.devmem_c, open));
		// What the loop looks at, the helpers it calls included.
		std::string looked_at = block;
		static const std::regex call(R"(\b([A-Za-z_]\w*)\s*\()");
		for (auto it = std::sregex_iterator(block.begin(), block.end(), call); it != std::sregex_iterator(); ++it)
			if (const auto f = find_definition(t.devmem_c, (*it)[1].str()))
				looked_at += body_of(code, f);
		// A loop that looks at sg lengths but not addresses is the model's
		// auto-noaddr; one that looks at neither is no rule of the model's:
		// it is judged as the series' auto-sizing, which it fails.
		const bool addr = looked_at.find("sg_dma_address") != std::string::npos;
		const bool len = looked_at.find("sg_dma_len") != std::string::npos;
		choose("tx_niov", addr || !len ? "auto" : "auto-noaddr",
		       caller + ": bind-tx passes 0; " + at + ": the bind sizes TX niovs from the dmabuf size and " +
			       (addr ? "every sg address and length"
				: len ? "every sg length (not the addresses)"
				      : "no sg entry at all"));
		if (const auto cap = first_size(block))
			choose("tx_niov_max", size_word(*cap), at + ": the sizing starts at " + size_word(*cap));
		else
			out.ambiguous.push_back(at + ": where the TX sizing starts halving is not a constant the probe reads");
	}

	void rx_sizing(std::size_t shift_idx, std::size_t nparams) {
		const auto a = shift_arg("netdev_nl_bind_rx_doit", shift_idx, nparams);
		if (!a) return;
		const auto &[arg, line] = *a;
		const std::string at = where(kGenl, line);
		const auto h = find_definition(t.netdev_genl_c, "netdev_nl_bind_rx_doit");
		const std::string body = body_of(blank_comments_and_literals(t.netdev_genl_c), h);
		if (arg == "PAGE_SHIFT")
			choose("rx_attr", "absent", at + ": bind-rx passes PAGE_SHIFT: no rx-buf-size attribute");
		else if (body.find("RX_BUF_SIZE") != std::string::npos)
			choose("rx_attr", "present", at + ": bind-rx passes '" + arg + "', from the rx-buf-size attribute");
		else
			out.ambiguous.push_back(at + ": bind-rx passes '" + arg +
						"' as the niov shift, and reads no rx-buf-size attribute the probe knows");
	}

	void lookup() {
		const auto f = find_definition(t.devmem_c, "net_devmem_get_niov_at");
		if (!f) return;
		const std::string body = body_of(blank_comments_and_literals(t.devmem_c), f);
		const bool shift = body.find("niov_shift") != std::string::npos;
		choose("lookup", shift ? "niov" : "page",
		       where(kDevmem, f->line) + ": get_niov_at() " +
			       (shift ? "indexes by the binding's niov_shift" : "indexes by PAGE_SIZE"));
	}

	void fill() {
		const auto f = find_definition(t.datagram_c, "zerocopy_fill_skb_from_devmem");
		if (!f) return;
		const auto calls = find_calls(t.datagram_c, "skb_add_rx_frag_netmem", f->begin, f->end);
		if (calls.empty() || calls.front().args.size() < 6) {
			out.ambiguous.push_back(where(kDatagram, f->line) +
						": the fill adds no frag through skb_add_rx_frag_netmem(skb, i, netmem, off, size, truesize)");
		} else {
			const CCall &c = calls.front();
			const std::string &charge = c.args[5], &size = c.args[4];
			const std::string at = where(kDatagram, line_of(t.datagram_c, c.at));
			if (charge == "PAGE_SIZE")
				choose("truesize", "page", at + ": the fill charges PAGE_SIZE per frag");
			else if (charge == size)
				choose("truesize", "len", at + ": the fill charges the frag's length (" + size + ")");
			else if (charge == "0")
				choose("truesize", "zero", at + ": the fill charges nothing");
			else
				out.ambiguous.push_back(at + ": the fill charges '" + charge +
							"' per frag: neither PAGE_SIZE, the frag's length nor 0");
		}
		const std::string body = body_of(blank_comments_and_literals(t.datagram_c), f);
		const std::size_t cap = body.find("tx_max_frag_size");
		if (cap == std::string::npos)
			choose("max_frag", "none", where(kDatagram, f->line) + ": the fill clamps frags to no device limit");
		else
			choose("max_frag", "device",
			       where(kDatagram, line_of(t.datagram_c, f->begin + cap)) +
				       ": the fill clamps frags to the binding's tx_max_frag_size");
		const std::size_t copy = t.devmem_c.find("netmem_tx_max_frag_size");
		if (copy != std::string::npos)
			out.notes.push_back(where(kDevmem, line_of(t.devmem_c, copy)) +
					    ": the bind reads the device's netmem_tx_max_frag_size");
	}
};

}  // namespace

const RuleChoice *RuleChoices::find(const std::string &key) const {
	for (const auto &c : read)
		if (c.key == key) return &c;
	return nullptr;
}

RuleChoices read_rule_choices(const TreeText &t, const std::vector<std::string> &bind_params) {
	Reader r{t, {}};
	std::optional<std::size_t> shift_idx;
	for (std::size_t i = 0; i < bind_params.size(); i++)
		if (param_name(bind_params[i]) == "niov_shift") shift_idx = i;
	if (shift_idx && t.netdev_genl_c.empty()) {
		r.out.notes.push_back(std::string("no ") + kGenl +
				      " in the tree: binds as net-next's handlers do (bind-tx at PAGE_SHIFT, bind-rx from rx-buf-size)");
	} else if (shift_idx) {
		r.tx_sizing(*shift_idx, bind_params.size());
		r.rx_sizing(*shift_idx, bind_params.size());
	}
	r.lookup();
	r.fill();
	return r.out;
}

}  // namespace niov::kernel
