#include "worker_findings.hpp"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "limits.hpp"
#include "replay_command.hpp"

namespace niov::cli {

std::optional<WorkerFinding> worker_finding(const worker::Outcome &o, const std::string &replay) {
	if (o.ok())
		return std::nullopt;
	if (o.end == worker::End::error && o.fault_id == worker::kLimitId)
		throw LimitError(o.fault);
	return WorkerFinding{o.id(), o.what(), o.where(), replay};
}

WorkerFinding leak_finding(const PluginImpl::Leak &l, const std::string &plugin, const std::string &where,
			   const std::string &replay) {
	return WorkerFinding{"plugin.leak",
			     fmt::format("leak of {} bytes over {} binds (bind/unbind cycles of the last bind)", l.bytes,
					 l.binds),
			     "in bind/unbind of " + plugin + (where.empty() ? "" : ", " + where), replay};
}

nlohmann::json to_json(const WorkerFinding &f) {
	return {{"id", f.id}, {"what", f.what}, {"where", f.where}, {"replay", f.replay}};
}

std::optional<WorkerFinding> finding_from_json(const nlohmann::json &j) {
	if (!j.is_object() || !j.contains("id"))
		return std::nullopt;
	return WorkerFinding{j.value("id", ""), j.value("what", ""), j.value("where", ""), j.value("replay", "")};
}

std::string to_text(const WorkerFinding &f) {
	std::string s = fmt::format("FINDING {}: {}", f.id, f.what);
	if (!f.where.empty())
		s += " (" + f.where + ")";
	s += "\n";
	if (!f.replay.empty())
		s += "  replay: " + f.replay + "\n";
	return s;
}

namespace {

double seconds_option(Args &args, const std::string &name, double def) {
	const std::string v = args.option(name, "");
	if (v.empty())
		return def;
	char *end = nullptr;
	const double d = std::strtod(v.c_str(), &end);
	if (end == v.c_str() || *end || !(d >= 0 && d <= 1e6))
		throw UsageError(fmt::format("--{} '{}': want seconds, 0 (no limit) to 1000000", name, v));
	return d;
}

}  // namespace

worker::Limits worker_limits(Args &args, worker::Limits l) {
	std::string err;
	if (!worker::limits_from_env(l, err))
		throw UsageError(err);
	l.op_seconds = seconds_option(args, "op-timeout", l.op_seconds);
	l.job_seconds = seconds_option(args, "job-timeout", l.job_seconds);
	if (args.flag("no-worker"))
		l.in_process = true;
	return l;
}

std::string self_exe() {
	std::error_code ec;
	auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
	return ec ? std::string("niovcheck") : p.string();
}

std::string absolute(const std::string &path) {
	std::error_code ec;
	const auto p = std::filesystem::absolute(path, ec);
	return ec ? path : p.lexically_normal().string();
}

std::string replay_command(const std::string &file, const std::string &plugin, const std::string &flags) {
	return replay_command_line(self_exe(), absolute(file), plugin.empty() ? "" : absolute(plugin), flags);
}

}  // namespace niov::cli
