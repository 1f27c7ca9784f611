#include "all_probe.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "plugin.hpp"
#include "plugin_load.hpp"
#include "printable.hpp"
#include "replay_command.hpp"

namespace niov::cli {

PluginProbe probe_plugin(const std::string &plugin, const RulesRequest &request, const worker::Limits &lim,
			 const std::string &niovcheck, const std::string &source_dir) {
	const worker::Outcome o = worker::run(
		[&] {
			const PluginImpl p(plugin);
			RulesInForce r;
			try {
				r = resolve_rules(request, &p);
			} catch (const RulesError &e) {
				return nlohmann::json{{"rules_error", printable(e.what())}}.dump();
			}
			return nlohmann::json{{"name", p.name()},
					      {"must_catch", p.must_catch()},
					      {"preset", std::string(name(r.preset))},
					      {"overrides", r.overrides()},
					      {"from", r.from}}
				.dump();
		},
		load_limits(lim));
	PluginProbe out;
	if (o.end == worker::End::error)  // the loader's PluginError
		throw PluginError(printable(o.fault));
	if (!o.ok()) {
		Observation ob;
		ob.engine = "load";
		ob.what = "loading the plugin (its constructors and niov_impl_get)";
		ob.invariant = o.id();
		ob.detail = o.what();
		// Any command that loads it shows it again: `replay` of a shipped
		// scenario reports the load as a finding, exit 1.
		ob.replay = replay_command_line(niovcheck, source_dir + "/corpora/scenarios/tx_hugetlb_2m.scn", plugin, "");
		out.died = std::move(ob);
		return out;
	}
	const auto j = nlohmann::json::parse(o.result);
	if (j.contains("rules_error"))
		throw RulesError(j.value("rules_error", ""));
	RulesRequest exact;
	exact.rules = j.value("preset", "");
	if (const std::string ov = j.value("overrides", ""); !ov.empty())
		exact.policies = {ov};
	PluginFacts f{printable(j.value("name", "")), j.value("must_catch", ""), resolve_rules(exact, nullptr)};
	f.rules.from = printable(j.value("from", ""));
	out.facts = std::move(f);
	return out;
}

}  // namespace niov::cli
