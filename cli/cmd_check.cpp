// check: a folder of scenario files, each run in a worker and judged
// against its own expect lines; one row per file whatever happens to it.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "breadcrumb.hpp"
#include "check_core.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "report_json.hpp"
#include "rules_opts.hpp"
#include "worker_findings.hpp"

namespace niov::cli {

namespace {

constexpr const char *kRowFormat = "%-44s %-12s %-10s %-8s %-9s %s\n";

std::string shown_name(const std::string &f) { return f.size() > 44 ? "..." + f.substr(f.size() - 41) : f; }

std::string rules_label(const Scenario &sc) { return RulesInForce{sc.cfg.preset, sc.cfg.policy, ""}.label(); }

// The verdict table: one row per scenario file, whatever happened to it.
// As JSON each row goes out as it comes (a row's report streamed from the
// worker): held until the end, 100,000 sends took a gigabyte.
class CheckTable {
public:
	explicit CheckTable(bool json) : json_(json) {
		if (!json_)
			std::printf(kRowFormat, "scenario", "rules", "bind", "niov", "result", "verdict");
	}

	// One bad file is a row, not the end of the folder.
	void bad_file(const std::string &f, const std::string &msg) {
		++bad_;
		++rows_n_;
		if (json_)
			json_row({{"scenario", f}, {"as_expected", false}, {"bad_input", msg}});
		else
			std::printf(kRowFormat, shown_name(f).c_str(), "-", "-", "-", "BAD FILE", msg.c_str());
	}

	// Not run: the rules in force are not the file's.
	void skipped(const std::string &f, const std::string &why) {
		++skipped_;
		++rows_n_;
		if (json_)
			json_row({{"scenario", f}, {"skipped", why}});
	}

	// A piece of the next row's report, as the worker writes it.
	void report_piece(std::string_view piece) {
		if (!in_report_) {
			next_row();
			std::fputs("{\"report\": ", stdout);
			in_report_ = true;
		}
		std::fwrite(piece.data(), 1, piece.size(), stdout);
	}

	void row(nlohmann::json row) {
		++rows_n_;
		const std::string f = row["scenario"];
		const bool found = !row["findings"].empty();
		if (found)
			row["as_expected"] = false;
		findings_ += found;
		unexpected_ += !row.value("as_expected", false);
		if (json_) {
			json_row(row);
		} else if (!found) {
			std::printf(kRowFormat, shown_name(f).c_str(), row["rules"].get<std::string>().c_str(),
				    std::string(errno_name(row["bind_err"].get<int>())).c_str(),
				    row["niov"].get<std::string>().c_str(), row["result"].get<std::string>().c_str(),
				    row["as_expected"].get<bool>() ? "ok"
								   : ("UNEXPECTED: " + row["note"].get<std::string>()).c_str());
		} else {
			for (const auto &fj : row["findings"]) {
				const auto wf = *finding_from_json(fj);
				std::printf(kRowFormat, shown_name(f).c_str(), row["rules"].get<std::string>().c_str(), "-",
					    "-", "FINDING",
					    (wf.id + ": " + wf.what + (wf.where.empty() ? "" : " (" + wf.where + ")")).c_str());
				std::printf("    replay: %s\n", wf.replay.c_str());
			}
		}
		std::fflush(stdout);
	}

	// Every scenario asked for has its row, or the run did not finish.
	int finish(size_t files, const std::string &impl, const std::optional<RulesInForce> &rules) {
		const int missing = static_cast<int>(files) - rows_n_;
		const int ran = rows_n_ - skipped_ - bad_;
		if (json_) {
			if (in_report_)  // the worker died while writing the report: the row cannot be closed
				throw std::runtime_error("a scenario's run ended while its report was written");
			std::fputs(rows_out_ ? "\n  ],\n" : "{\n  \"schema\": \"niovcheck-check/1\",\n  \"scenarios\": [],\n",
				   stdout);
			const std::string tail = nlohmann::json{{"impl", impl},
								{"rules", rules ? rules_json(*rules) : nlohmann::json(nullptr)},
								{"ran", ran},
								{"skipped", skipped_},
								{"unexpected", unexpected_},
								{"findings", findings_},
								{"bad_files", bad_},
								{"missing", missing}}
							 .dump(2);
			std::puts(("  " + tail.substr(tail.find('"'))).c_str());  // the fields and the closing brace
		} else {
			std::printf("%zu scenarios, %d run, %d as expected, %d unexpected", files, ran, ran - unexpected_,
				    unexpected_);
			if (findings_)
				std::printf(", %d with plugin findings", findings_);
			if (bad_)
				std::printf(", %d bad files", bad_);
			if (missing)
				std::printf(", %d NOT RUN", missing);
			if (skipped_)
				std::printf("; %d skipped (their rules are not %s; --all-rules runs them under their own)",
					    skipped_, rules->label().c_str());
			std::printf("\n");
		}
		if (bad_)
			return kExitBadInput;
		return unexpected_ || missing ? kExitViolation : kExitClean;
	}

private:
	void next_row() {
		std::fputs(rows_out_++ ? ",\n    " : "{\n  \"schema\": \"niovcheck-check/1\",\n  \"scenarios\": [\n    ", stdout);
	}
	// A row's fields; after a streamed report, they close its object.
	void json_row(const nlohmann::json &row) {
		std::string text = row.dump();
		if (in_report_) {
			in_report_ = false;
			text = text.size() > 2 ? ", " + text.substr(1) : "}";
		} else {
			next_row();
		}
		std::fputs(text.c_str(), stdout);
	}

	bool json_;
	bool in_report_ = false;
	size_t rows_out_ = 0;
	int rows_n_ = 0, unexpected_ = 0, findings_ = 0, bad_ = 0, skipped_ = 0;
};

// check's row for one scenario, made in the worker.
nlohmann::json check_row(const Scenario &sc, const std::string &f, PluginImpl *impl, const std::string &flags,
			 bool json) {
	crumb_context("scenario " + f);
	const RunReport r = run_scenario(sc, impl);
	const Verdict v = judge(sc, r);
	const int err = RunReport::bind_err(r.model);
	const size_t nviol = r.model.violations.size() + (r.impl ? r.impl->violations.size() : 0);
	// A plugin that cannot take the input (not representable) or lacks the
	// path is not compared: its row says so.
	const std::string verdict = r.verdict();
	const std::string result = verdict == "violation"	    ? fmt::format("{} viol", nviol + r.differences.size())
				   : verdict == "not representable" ? "not repr."
								    : verdict;
	nlohmann::json j{{"scenario", f},
			 {"rules", rules_label(sc)},
			 {"bind_err", err},
			 {"niov", err ? "-" : fmt::format("{}K", (uint64_t{1} << r.model.bind.niov_shift) >> 10)},
			 {"result", result},
			 {"as_expected", v.as_expected},
			 {"note", v.note},
			 {"findings", leak_findings(impl, r, f, flags)}};
	if (json) {  // streamed to the table: a big run's report is tens of megabytes
		JsonWriter w([](std::string_view piece) { worker::stream(piece); });
		write_report_json(w, r, sc);
	}
	return j;
}

// The rules a check runs under: with a plugin, the flags or what it
// declares (an error if neither); without one, the flags if given, else
// none (every scenario runs under its own rules).
std::optional<RulesInForce> rules_for(const RulesRequest &req, const PluginImpl *impl) {
	if (!impl && !req.given())
		return std::nullopt;
	return resolve_rules(req, impl);
}

}  // namespace

int cmd_check(Args &args) {
	const bool json = args.flag("json");
	const bool all_rules = args.flag("all-rules");
	const worker::Limits lim = worker_limits(args);
	auto impl = impl_option(args, lim);
	const RulesRequest req = rules_request(args);
	const auto files = scenario_files(args.positional());
	args.done();
	if (files.empty())
		throw UsageError("no scenario files given");
	const auto rules = rules_for(req, impl.get());
	const bool filter = rules && !all_rules;
	const std::string flags = filter ? rules->flags() : "";
	const std::string impl_path = impl ? std::filesystem::absolute(impl->path()).string() : "";
	if (!json)
		std::printf("niovcheck check: %s, %s\n",
			    impl ? ("plugin " + impl_path + " (" + impl->name() + ")").c_str() : "the model",
			    !rules	  ? "each scenario under its own rules"
			    : all_rules ? ("every scenario under its own rules (--all-rules; the plugin's: " +
					   rules->label() + ")")
						  .c_str()
					: rules_text(*rules).c_str());
	// Parsed here (our code); only the runs, which call the plugin, go to
	// workers, as many scenarios to a worker as survive.
	std::vector<ParseResult> loaded;
	std::vector<size_t> good;  // indices into @files of the scenarios that run
	CheckTable table(json);
	size_t shown = 0;  // files whose row is out, in order
	auto show_until = [&](size_t i) {
		for (; shown < i; ++shown) {
			const auto &p = loaded[shown];
			if (!p.scenario)
				table.bad_file(files[shown], p.error.message);
			else if (filter && !rules->matches(*p.scenario))
				table.skipped(files[shown], fmt::format("rules {} are not the rules in force",
									rules_label(*p.scenario)));
		}
	};
	for (size_t i = 0; i < files.size(); ++i) {
		loaded.push_back(load_scenario_file(files[i]));
		auto &sc = loaded.back().scenario;
		if (!sc || (filter && !rules->matches(*sc)))
			continue;
		if (filter)
			rules->pin(*sc);  // the same policies: only marks them as the rules under test
		good.push_back(i);
	}
	worker::Batch b;
	b.items = good.size();
	b.item = [&](size_t k) {
		return check_row(*loaded[good[k]].scenario, files[good[k]], impl.get(), flags, json).dump();
	};
	b.chunk = [&](size_t k, std::string_view piece) {
		show_until(good[k]);
		table.report_piece(piece);
	};
	b.done = [&](size_t k, const std::string &result, uint64_t printed, const worker::Outcome &so_far) {
		const std::string &f = files[good[k]];
		show_until(good[k]);
		nlohmann::json row = nlohmann::json::parse(result);
		if (printed) {
			worker::Outcome out = so_far;
			out.end = worker::End::result;
			out.stdout_bytes = printed;
			out.context = "scenario " + f;
			row["findings"].push_back(to_json(*worker_finding(out, replay_command(f, impl_path, flags))));
		}
		table.row(std::move(row));
		shown = good[k] + 1;
		return true;
	};
	b.died = [&](size_t k, const worker::Outcome &o) {
		const std::string &f = files[good[k]];
		show_until(good[k]);
		nlohmann::json row{
			{"scenario", f},
			{"rules", rules_label(*loaded[good[k]].scenario)},
			{"findings", nlohmann::json::array({to_json(*worker_finding(o, replay_command(f, impl_path, flags)))})}};
		table.row(std::move(row));
		shown = good[k] + 1;
		return true;
	};
	worker::run_batch(b, lim);
	show_until(files.size());
	return table.finish(files.size(), impl_path, rules);
}

}  // namespace niov::cli
