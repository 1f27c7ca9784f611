// Helpers the property files share.
#pragma once

#include <fmt/format.h>
#include <rapidcheck.h>

#include "case_record.hpp"
#include "gen_scenario.hpp"
#include "oracle.hpp"
#include "property.hpp"
#include "report.hpp"
#include "show.hpp"
#include "verdict.hpp"

namespace niov::props {

// The generator shape for a target.  @robust: the property's invariant
// holds under every single-policy override, so overrides are generated
// too (those cases run on the model alone).
inline Shape shape_for(const Target &t, bool robust) {
	Shape s;
	s.space = t.space;
	s.caps = t.caps();
	s.space.overrides = robust && t.allow_overrides && !t.hunting();
	return s;
}

// Every trace of a run: the model's and, if one answered, the plugin's.
inline std::vector<const Trace *> traces(const RunReport &r) {
	std::vector<const Trace *> v{&r.model};
	if (r.impl)
		v.push_back(&*r.impl);
	return v;
}

// Fail the case with a formatted message.
template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> f, Args &&...args) {
	RC_FAIL(fmt::format(f, std::forward<Args>(args)...));
	__builtin_unreachable();
}

// An implementation bound to a scenario for direct questions (lookups,
// niov addresses, descriptor encodings); unbound when it goes.
class Bound {
public:
	Bound(Impl &impl, const Scenario &sc) : impl_(impl), bind_(impl.bind(sc)) {}
	~Bound() { impl_.unbind(); }
	Bound(const Bound &) = delete;
	Bound &operator=(const Bound &) = delete;
	const BindResult &result() const { return bind_; }
	Impl &impl() { return impl_; }

private:
	Impl &impl_;
	BindResult bind_;
};

inline uint64_t niov_size(unsigned shift) { return shift < 64 ? uint64_t{1} << shift : 0; }

}  // namespace niov::props
