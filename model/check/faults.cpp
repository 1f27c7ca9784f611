#include "faults.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "caps.hpp"
#include "checks.hpp"
#include "findings.hpp"

namespace niov {

namespace {

constexpr const char *kKindNames[NIOV_FAULT_COUNT_] = {"alloc",	   "dmabuf_get",    "dmabuf_attach",
						       "dmabuf_map", "queue_restart", "id_alloc"};

void disarm(PluginImpl &impl) {
	for (uint32_t k = 0; k < NIOV_FAULT_COUNT_; ++k)
		impl.fault_arm(k, 0);
}

std::string errnos_text(const std::vector<int> &v) {
	std::string s;
	for (int e : v)
		s += (s.empty() ? "" : " or ") + std::string(errno_name(e));
	return s;
}

// What netlink's bind-rx answers: the bind's error, else the queue's (the
// handler unbinds when bind-to-queue fails).  A fault may hit either step.
int handler_errno(const BindResult &r) { return r.err ? r.err : r.queue_err.value_or(0); }

}  // namespace

std::string_view fault_kind_name(uint32_t kind) { return kind < NIOV_FAULT_COUNT_ ? kKindNames[kind] : "?"; }

std::vector<int> fault_errnos(const Scenario &sc, uint32_t kind) {
	switch (kind) {
	case NIOV_FAULT_ALLOC:
		// gen_pool_add_owner's -ENOMEM comes out of the gen_pool binds as
		// -EINVAL; every other allocation failure is -ENOMEM.
		if (sc.cfg.policy.bind != BindStyle::freelist)
			return {-kENOMEM, -kEINVAL};
		return {-kENOMEM};
	case NIOV_FAULT_DMABUF_GET:
		return {-kEBADF};
	case NIOV_FAULT_DMABUF_ATTACH:
	case NIOV_FAULT_DMABUF_MAP:
	case NIOV_FAULT_QUEUE_RESTART:
		return {-kENOMEM};
	case NIOV_FAULT_ID_ALLOC:
		return {-kEBUSY};
	}
	return {};
}

FaultSweep sweep_faults(const Scenario &in, PluginImpl &impl, const RulesInForce &rules, const FaultPick &pick) {
	Scenario sc = in;
	rules.pin(sc);
	FaultSweep out;
	out.scenario = sc.name;
	if (!impl.has_faults()) {
		out.not_run = lacking(NIOV_CAP_FAULTS, impl.caps());
		return out;
	}
	if (const std::string why = lacking(bind_caps(sc), impl.caps()); !why.empty()) {
		out.not_run = fmt::format("{} bind ({})", name(sc.dir), why);
		return out;
	}
	auto fail = [&](Inv inv, uint32_t step, std::string detail) {
		auto &to = is_known_finding(sc, inv) ? out.known : out.violations;
		to.push_back({std::string(id(inv)), step, 0, impl.name(), std::move(detail)});
	};
	auto settle = [&](uint32_t step, const niov_resources &before, const std::string &what) {
		const auto after = impl.resources();
		if (!after)
			return;
		for (auto &f : resource_findings(before, *after))
			fail(f.inv, step, what + ": " + f.detail);
	};

	// One bind without faults: it must work, and it says how many calls
	// of each kind there are to fail.
	disarm(impl);
	const auto res0 = impl.resources();
	if (!res0) {
		out.not_run = "the plugin keeps no resource counters (resources op)";
		return out;
	}
	BindResult clean = impl.bind(sc);
	clean.err = handler_errno(clean);
	for (uint32_t k = 0; k < NIOV_FAULT_COUNT_; ++k)
		out.calls[k] = impl.fault_calls(k);
	impl.unbind();
	if (clean.err) {
		out.not_run = fmt::format("the bind fails without faults ({})", errno_name(clean.err));
		return out;
	}
	settle(0, *res0, "the bind without faults");
	// Nothing counted, nothing to fail: not a clean sweep.
	if (std::all_of(std::begin(out.calls), std::end(out.calls), [](uint64_t n) { return n == 0; })) {
		out.not_run = "the bind makes no call that can be failed";
		return out;
	}

	for (uint32_t kind = 0; kind < NIOV_FAULT_COUNT_; ++kind) {
		const auto allowed = fault_errnos(sc, kind);
		std::vector<uint64_t> points;
		if (pick) {
			points = pick(kind, out.calls[kind]);
		} else {
			for (uint64_t nth = 1; nth <= out.calls[kind]; ++nth)
				points.push_back(nth);
		}
		for (const uint64_t nth : points) {
			if (nth < 1 || nth > out.calls[kind])
				continue;
			disarm(impl);
			impl.fault_arm(kind, nth);
			const auto before = impl.resources();
			BindResult r = impl.bind(sc);
			r.err = handler_errno(r);
			const uint64_t reached = impl.fault_calls(kind);
			impl.unbind();
			disarm(impl);
			out.points.push_back({kind, nth, r.err});
			const auto step = static_cast<uint32_t>(out.points.size());
			const std::string what = fmt::format("{} call {} of {} failed", fault_kind_name(kind), nth,
							     out.calls[kind]);
			if (r.err == 0 && reached >= nth)
				fail(Inv::fault_errno, step, what + ", and the bind succeeded");
			else if (r.err != 0 && std::find(allowed.begin(), allowed.end(), r.err) == allowed.end())
				fail(Inv::fault_errno, step,
				     fmt::format("{}: the bind returned {}{}, the kernel gives {}", what, errno_name(r.err),
						 r.extack.empty() ? "" : " (extack \"" + r.extack + "\")",
						 errnos_text(allowed)));
			if (before)
				settle(step, *before, what);
		}
	}
	return out;
}

}  // namespace niov
