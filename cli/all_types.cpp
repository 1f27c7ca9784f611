#include "all_types.hpp"

#include <fmt/format.h>

namespace niov::cli {

std::string_view status_name(EngineStatus s) {
	switch (s) {
	case EngineStatus::ok: return "ok";
	case EngineStatus::finding: return "finding";
	case EngineStatus::not_run: return "not run";
	}
	return "?";
}

nlohmann::json to_json(const Observation &o) {
	return {{"engine", o.engine},	  {"what", o.what},	{"invariant", o.invariant},
		{"detail", o.detail},	  {"scenario", o.scenario}, {"replay", o.replay},
		{"model_only", o.model_only}, {"signal", o.signal}};
}

Observation observation_from(const nlohmann::json &j) {
	Observation o;
	o.engine = j.value("engine", "");
	o.what = j.value("what", "");
	o.invariant = j.value("invariant", "");
	o.detail = j.value("detail", "");
	o.scenario = j.value("scenario", "");
	o.replay = j.value("replay", "");
	o.model_only = j.value("model_only", false);
	o.signal = j.value("signal", 0);
	return o;
}

nlohmann::json to_json(const EngineResult &r) {
	auto obs = nlohmann::json::array();
	for (const auto &o : r.observations)
		obs.push_back(to_json(o));
	auto known = nlohmann::json::array();
	for (const auto &o : r.known)
		known.push_back(to_json(o));
	auto items = nlohmann::json::array();
	for (const auto &i : r.items)
		items.push_back({{"name", i.name}, {"status", std::string(status_name(i.status))}, {"note", i.note}});
	return {{"engine", r.name},	{"status", std::string(status_name(r.status))},
		{"note", r.note},	{"runs", r.runs},
		{"seconds", r.seconds}, {"observations", obs},
		{"known", known},	{"items", items}};
}

EngineStatus status_from(const std::string &s) {
	return s == "ok" ? EngineStatus::ok : s == "finding" ? EngineStatus::finding : EngineStatus::not_run;
}

EngineResult engine_from(const nlohmann::json &j) {
	EngineResult r;
	r.name = j.value("engine", "");
	r.status = status_from(j.value("status", ""));
	r.note = j.value("note", "");
	r.runs = j.value("runs", "");
	r.seconds = j.value("seconds", 0.0);
	for (const auto &o : j.value("observations", nlohmann::json::array()))
		r.observations.push_back(observation_from(o));
	for (const auto &o : j.value("known", nlohmann::json::array()))
		r.known.push_back(observation_from(o));
	for (const auto &i : j.value("items", nlohmann::json::array()))
		r.items.push_back({i.value("name", ""), status_from(i.value("status", "")), i.value("note", "")});
	return r;
}

}  // namespace niov::cli
