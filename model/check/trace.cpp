// Drive one implementation through a scenario: bind, probe the addressing,
// then run the sends and TCP operations, checking every invariant on the way.
#include <algorithm>
#include <numeric>
#include <fmt/format.h>

#include "breadcrumb.hpp"
#include "plugin.hpp"
#include "buffer_stash.hpp"
#include "caps.hpp"
#include "checks.hpp"
#include "explain.hpp"
#include "report.hpp"
#include "rx_sweep.hpp"
#include "segs.hpp"

namespace niov {

namespace {

using W = Concrete;

// The segments whose ends are probed: the first 64, enough to hit every
// kind of edge without a probe list that grows with the table.
size_t probed_segs(const Scenario &sc) { return std::min<size_t>(sc.segs.size(), 64); }

void sort_unique(std::vector<uint64_t> &v) {
	std::sort(v.begin(), v.end());
	v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Offsets worth probing: both ends of the dmabuf, of every segment and of the
// first and last niovs, plus page and niov multiples and the 64-bit edge.
// Scratch of every TX run: its storage comes from the thread's stash.
StashedVector<uint64_t> probe_offsets(const Scenario &sc, unsigned niov_shift) {
	const uint64_t size = sc.dmabuf_size;
	const uint64_t n = uint64_t{1} << niov_shift;
	StashedVector<uint64_t> v;
	v.reserve(13 + 2 * probed_segs(sc));  // grown a push at a time, it was 3 allocations a run
	v.assign({0, 1, sc.cfg.page_size() - 1, sc.cfg.page_size(), n - 1, n, n + 1,
	     2 * n - 1, size - 1, size, size + 1, size - n, UINT64_MAX});
	uint64_t start = 0;
	for (size_t i = 0; i < probed_segs(sc); ++i) {
		v.push_back(start - 1);
		v.push_back(start);
		start += sc.segs[i].len;
	}
	sort_unique(v);
	return v;
}

StashedVector<uint64_t> niov_probe_indices(const Scenario &sc, const BindResult &b) {
	StashedVector<uint64_t> v;
	if (b.num_niovs <= 256) {
		v.resize(b.num_niovs);
		std::iota(v.begin(), v.end(), uint64_t{0});
		return v;
	}
	v.reserve(4 + 2 * probed_segs(sc));
	v.assign({0, 1, b.num_niovs / 2, b.num_niovs - 1});
	uint64_t first = 0;
	for (size_t i = 0; i < probed_segs(sc); ++i) {
		const uint64_t cnt = sc.segs[i].len >> b.niov_shift;
		if (first < b.num_niovs)
			v.push_back(first);
		if (cnt && first + cnt - 1 < b.num_niovs)
			v.push_back(first + cnt - 1);
		first += cnt;
	}
	sort_unique(v);
	return v;
}

// The device side of opening an RX queue on the binding (RULES.md step 7);
// the order check runs through the implementation's pp_init when it has one.
int open_rx_queue(const Scenario &sc, Impl &impl, const BindResult &b, unsigned &order) {
	const auto &cfg = sc.cfg;
	order = sc.pp_order.value_or(
		static_cast<unsigned>(rules::rx_queue_order<W>(cfg.device, cfg.page_shift, b.niov_shift)));
	// Code that opened the queue itself (bind-to-queue behind the bind)
	// answers for the device step; the order check below still runs at the
	// scenario's order, which may differ from the one its driver picked.
	if (b.queue_err) {
		if (*b.queue_err)
			return *b.queue_err;
	} else {
		// Device checks first, with the order the binding expects.
		const int dev_err = static_cast<int32_t>(rules::rx_queue_errno<W>(
			cfg.device, cfg.page_shift, cfg.max_page_order, b.niov_shift, b.niov_shift - cfg.page_shift));
		if (dev_err)
			return dev_err;
	}
	if (auto r = impl.pp_init(order))
		return *r;
	return pp_order_check(b.niov_shift, cfg.page_shift, order);
}

}  // namespace

Trace trace_scenario(const Scenario &sc, Impl &impl, const RunOptions &opts) {
	Trace t;
	t.source = impl.name();
	if (const auto *p = dynamic_cast<const PluginImpl *>(&impl))
		t.code_sites = p->code_sites();
	const uint32_t caps = impl.caps();
	// A path the implementation does not have is not run: the model alone
	// answers it, and the report says so.
	if (const std::string why = lacking(bind_caps(sc), caps); !why.empty()) {
		t.ran = false;
		t.not_run.push_back(fmt::format("{} bind ({})", name(sc.dir), why));
		return t;
	}
	Checker chk(sc, impl, t, opts);
	t.res_before = impl.resources();

	crumb_step(0, 0);
	t.bind = impl.bind(sc);
	if (auto *m = dynamic_cast<ModelImpl *>(&impl); m && opts.explain_bind)
		t.explain = m->explanation();
	if (t.bind.not_representable()) {
		impl.unbind();
		return t;  // the code cannot take this input: nothing to check or compare
	}
	const bool bound = t.bind.err == 0;
	if (bound && sc.dir != Dir::tx) {
		t.queue_err = open_rx_queue(sc, impl, t.bind, t.pp_order);
		if (t.queue_err && opts.explain_bind)
			t.explain += "; opening the RX queue fails " +
				     queue_failure_reason(sc, t.bind.niov_shift, t.pp_order, t.queue_err);
	}
	if (bound)
		chk.after_bind();
	if (bound && t.queue_err == 0 && sc.dir != Dir::tx)
		chk.after_queue_open();

	if (bound && sc.dir == Dir::tx) {
		if (caps & NIOV_CAP_LOOKUP) {
			const auto offsets = probe_offsets(sc, t.bind.niov_shift);
			reuse_kept(t.probes, offsets.size());
			for (uint64_t v : offsets) {
				Probe p{v, impl.lookup(v)};
				chk.probe(p);
				t.probes.push_back(p);
			}
		} else {
			t.not_run.push_back("get_niov_at (" + lacking(NIOV_CAP_LOOKUP, caps) + ")");
		}
	}
	// The niov table of every devmem binding, RX too: 6.12's truncated sg
	// entries show here, before any send.
	if (bound && sc.dir != Dir::zcrx) {
		const auto indices = niov_probe_indices(sc, t.bind);
		reuse_kept(t.niov_probes, indices.size());
		for (uint64_t i : indices)
			t.niov_probes.emplace_back(i, impl.niov_dma(i));
		chk.niov_table(t.niov_probes);
	}
	// The allocator is the page_pool's provider: only a queue that opened
	// has one (netlink unbinds a binding whose queue failed).
	if (bound && sc.dir == Dir::rx && t.queue_err == 0 && opts.rx_sweep_max_niovs) {
		if (caps & NIOV_CAP_RX_ALLOC)
			sweep_rx_allocator(impl, chk, t, opts.rx_sweep_max_niovs);
		else
			t.not_run.push_back("RX allocator (" + lacking(NIOV_CAP_RX_ALLOC, caps) + ")");
	}

	const bool fills = (caps & NIOV_CAP_FILL) || sc.dir != Dir::tx || !bound;
	if (!fills && !sc.ops.empty())
		t.not_run.push_back(fmt::format("{} operations ({})", sc.ops.size(), lacking(NIOV_CAP_FILL, caps)));
	if (fills) {
		Socket sock(sc, impl, chk, opts, bound && t.queue_err == 0 && sc.dir == Dir::tx);
		reuse_kept(t.ops, sc.ops.size());
		try {
			for (size_t k = 0; k < sc.ops.size(); ++k) {
				chk.set_step(static_cast<uint32_t>(k + 1), sc.ops[k].line);
				crumb_step(static_cast<uint32_t>(k + 1), sc.ops[k].line);
				t.ops.push_back(sock.apply(sc.ops[k]));
			}
		} catch (const LimitError &) {
			// A run stopped by its budget still gives back what it took:
			// a fuzz target runs the next input in this process, and its
			// resource check would count this binding as its leak.
			sock.close();
			impl.unbind();
			throw;
		}
		sock.close();  // every frag goes back before the unbind
	}
	impl.unbind();
	t.res_after = impl.resources();
	if (t.res_before && t.res_after) {
		chk.set_step(static_cast<uint32_t>(sc.ops.size() + 1), 0);
		chk.resources(*t.res_before, *t.res_after);
	}
	return t;
}

RunReport run_scenario(const Scenario &sc, Impl *impl, const RunOptions &opts) {
	RunReport r;
	r.scenario = sc.name;
	ModelImpl model;
	r.model = trace_scenario(sc, model, opts);
	if (impl) {
		r.impl = trace_scenario(sc, *impl, opts);
		r.differences = diff_traces(r.model, *r.impl);
	}
	return r;
}

std::string RunReport::verdict() const {
	if (!clean())
		return "violation";
	if (not_representable())
		return "not representable";
	if (impl && !impl->ran)
		return "not run";
	if (partial())
		return "partial";
	return "clean";
}

}  // namespace niov
