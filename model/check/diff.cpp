// Model-vs-plugin comparison: the same scenario must give the same errnos,
// the same niov table and the same frags and charges.
#include <fmt/format.h>

#include "report.hpp"

namespace niov {

namespace {

std::string frag_text(const Frag &f) {
	return fmt::format("niov {} off {:#x} len {} truesize {}", f.niov, f.off, f.len, f.truesize);
}

std::string lookup_text(const LookupResult &l) {
	if (l.err)
		return std::string(errno_name(l.err));
	return fmt::format("niov {} off {:#x} size {:#x}", l.idx, l.off, l.size);
}

class Differ {
public:
	explicit Differ(std::vector<Difference> &out) : out_(out) {}
	void at(uint32_t step, uint32_t line) {
		step_ = step;
		line_ = line;
	}
	template <class T>
	void cmp(const std::string &field, const T &m, const T &i) {
		if (m != i)
			add(field, text(m), text(i));
	}
	void add(std::string what, std::string m, std::string i) { add(what, what, std::move(m), std::move(i)); }
	void add(std::string field, std::string what, std::string m, std::string i, int64_t skb = -1,
		 int64_t frag = -1, std::optional<uint64_t> at = std::nullopt) {
		if (out_.size() < 200)
			out_.push_back({step_, line_, std::move(what), std::move(m), std::move(i), std::move(field), skb,
					frag, at});
	}

private:
	template <class T>
	static std::string text(const T &v) {
		return fmt::format("{}", v);
	}
	std::vector<Difference> &out_;
	uint32_t step_ = 0, line_ = 0;
};

std::string rx_niov_text(const RxNiov &n) {
	return fmt::format("niov {} at offset {:#x} DMA {:#x}", n.idx, n.virt, n.dma);
}

// The allocation order is the implementation's; what it hands out is not.
void diff_rx_alloc(Differ &d, const RxAllocReport &m, const RxAllocReport &i) {
	for (int r = 0; r < 2; ++r) {
		d.cmp(fmt::format("rx_alloc round {} handed out", r + 1), m.rounds[r].handed, i.rounds[r].handed);
		d.cmp(fmt::format("rx_alloc round {} failed", r + 1), m.rounds[r].failed, i.rounds[r].failed);
	}
	for (size_t k = 0; k < m.niovs.size() && k < i.niovs.size(); ++k)
		if (!(m.niovs[k] == i.niovs[k])) {
			d.add("rx_alloc niovs (sorted)", rx_niov_text(m.niovs[k]), rx_niov_text(i.niovs[k]));
			break;	// the rest follow from the first
		}
}

}  // namespace

std::string answer_class(const std::string &field) {
	if (field == "bind.queue_err")
		return "rx queue";
	if (field.rfind("bind.", 0) == 0)
		return "bind";
	if (field == "get_niov_at" || field == "niov_dma")
		return "lookup";
	if (field == "frag.truesize" || field == "sk_wmem_queued")
		return "truesize";
	if (field.rfind("rx_alloc", 0) == 0)
		return "rx alloc";
	return "frags";
}

std::vector<Difference> diff_traces(const Trace &m, const Trace &i) {
	std::vector<Difference> out;
	// Not asked, or not able to take the input: nothing to compare.
	if (!m.ran || !i.ran || m.bind.not_representable() || i.bind.not_representable())
		return out;
	Differ d(out);
	d.at(0, 0);
	if (m.bind.err != i.bind.err)
		d.add("bind.err", std::string(errno_name(m.bind.err)), std::string(errno_name(i.bind.err)));
	if (m.bind.err == 0 && i.bind.err == 0) {
		d.cmp("bind.niov_shift", m.bind.niov_shift, i.bind.niov_shift);
		d.cmp("bind.num_niovs", m.bind.num_niovs, i.bind.num_niovs);
	}
	if (m.queue_err != i.queue_err)
		d.add("bind.queue_err", std::string(errno_name(m.queue_err)),
		      std::string(errno_name(i.queue_err)));
	if (m.bind == i.bind) {
		for (size_t k = 0; k < m.probes.size() && k < i.probes.size(); ++k)
			if (!(m.probes[k].lookup == i.probes[k].lookup))
				d.add("get_niov_at", fmt::format("get_niov_at({:#x})", m.probes[k].virt),
				      lookup_text(m.probes[k].lookup), lookup_text(i.probes[k].lookup), -1, -1,
				      m.probes[k].virt);
		for (size_t k = 0; k < m.niov_probes.size() && k < i.niov_probes.size(); ++k) {
			const auto &[idx, md] = m.niov_probes[k];
			const auto &id = i.niov_probes[k].second;
			if (md != id)
				d.add("niov_dma", fmt::format("niov {} dma", idx), md ? fmt::format("{:#x}", *md) : "none",
				      id ? fmt::format("{:#x}", *id) : "none", -1, -1, idx);
		}
	}
	if (m.rx_alloc.ran && i.rx_alloc.ran)
		diff_rx_alloc(d, m.rx_alloc, i.rx_alloc);
	for (size_t k = 0; k < m.ops.size() && k < i.ops.size(); ++k) {
		const auto &mo = m.ops[k];
		const auto &io = i.ops[k];
		d.at(static_cast<uint32_t>(k + 1), mo.line);
		if (mo.kind == OpKind::send) {
			if (mo.result != io.result)
				d.add("send.result", "send result",
				      mo.result < 0 ? std::string(errno_name(static_cast<int>(mo.result)))
						    : std::to_string(mo.result),
				      io.result < 0 ? std::string(errno_name(static_cast<int>(io.result)))
						    : std::to_string(io.result));
			d.cmp("send.skbs", mo.skb_count, io.skb_count);
			// Frag by frag first: a frag that differs explains a differing
			// frag count after it, never the other way round.
			bool frag_diff = false;
			for (size_t s = 0; s < mo.skbs.size() && s < io.skbs.size() && !frag_diff; ++s) {
				const auto &ms = mo.skbs[s];
				const auto &is = io.skbs[s];
				for (size_t f = 0; f < ms.frags.size() && f < is.frags.size() && !frag_diff; ++f) {
					const Frag &a = ms.frags[f].frag, &b = is.frags[f].frag;
					if (!same_frag(a, b)) {
						// The first part that differs names the field.
						const char *part = a.niov != b.niov ? "frag.niov"
								   : a.off != b.off ? "frag.off"
								   : a.len != b.len ? "frag.len"
										    : "frag.truesize";
						d.add(part, fmt::format("skb {} frag {}", s, f), frag_text(a), frag_text(b),
						      static_cast<int64_t>(s), static_cast<int64_t>(f));
						frag_diff = true;  // later frags follow from this one
					}
				}
				if (!frag_diff && ms.frags.size() != is.frags.size()) {
					d.add("skb.frags", fmt::format("skb {} frags", s), std::to_string(ms.frags.size()),
					      std::to_string(is.frags.size()), static_cast<int64_t>(s));
					frag_diff = true;
				}
			}
			// Digests only (neither trace kept the skbs): a difference
			// somewhere in the send's frags, worded by a recorded run.
			if (!frag_diff && mo.skb_digest != io.skb_digest)
				d.add("send.digest", "the send's frags (digest)", fmt::format("{:#018x}", mo.skb_digest),
				      fmt::format("{:#018x}", io.skb_digest));
		}
		d.cmp("sk_wmem_queued", mo.wmem, io.wmem);
	}
	return out;
}

}  // namespace niov
