#include "enumerate.hpp"

#include <cmath>

#include <fmt/format.h>

#include "solve.hpp"

namespace niov::smt {

namespace {

// Inputs without a reduced domain take their edge values.
Dom dom_of(VarKind k, const Dom &d) {
	if (d.size())
		return d;
	if (k == VarKind::flag)
		return Dom::list({0, 1});
	return Dom::list({0, 1, k == VarKind::u32 ? UINT32_MAX : UINT64_MAX});
}

}  // namespace

EnumResult enumerate(const Lemma &lemma, const Point &point, uint64_t max_cases) {
	EnumResult r;
	// Discover the inputs (the body asks for the same ones every time).
	std::vector<Dom> doms;
	std::vector<std::string> names;
	{
		In<Concrete> in([](size_t, std::string_view, VarKind k, const Dom &d) { return dom_of(k, d).at(0); });
		(void)lemma.conc(point, in);
		for (const auto &v : in.vars()) {
			doms.push_back(dom_of(v.kind, v.dom));
			names.push_back(v.name);
			r.input_bits += v.kind == VarKind::flag ? 1 : v.kind == VarKind::u32 ? 32 : 64;
			r.reduced_log2 += std::log2(static_cast<double>(doms.back().size()));
		}
	}
	std::vector<uint64_t> at(doms.size(), 0);
	const In<Concrete>::Source src = [&](size_t i, std::string_view, VarKind, const Dom &) {
		return doms[i].at(at[i]);
	};
	const double c0 = thread_cpu_seconds();
	for (;;) {
		if (r.cases == max_cases) {
			r.truncated = true;
			break;
		}
		In<Concrete> in(src, false);
		const Claim<Concrete> c = lemma.conc(point, in);
		++r.cases;
		if (c.pre) {
			++r.in_domain;
			if (!c.goal() && !r.failures++)
				for (size_t i = 0; i < doms.size(); ++i)
					r.first_failure +=
						fmt::format("{}{}={:#x}", i ? " " : "", names[i], doms[i].at(at[i]));
		}
		size_t k = 0;
		while (k < at.size() && ++at[k] == doms[k].size())
			at[k++] = 0;
		if (k == at.size())
			break;
	}
	r.cpu_seconds = thread_cpu_seconds() - c0;
	return r;
}

}  // namespace niov::smt
