// The forked worker every plugin-driving engine runs its jobs in: one child
// per job (a scenario, a property batch), so a plugin that crashes, hangs,
// calls exit() or prints to stdout costs one finding row, never the run or
// its output.
//
//   worker::Outcome o = worker::run([&] { return run_the_job_as_json(); });
//   if (o.ok()) use(o.result); else report(o.id(), o.what());
//
// The child's result comes back through a pipe (the job serializes it, e.g.
// as JSON); its stdout and stderr are pipes too, so the parent's stdout is
// only the parent's.  The breadcrumb (breadcrumb.hpp) is a MAP_SHARED page:
// after the child died the parent still knows the plugin, the operation,
// the job's context and step, and what the code noticed on its way out.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace niov::worker {

struct Limits {
	double job_seconds = 0;	 // the whole job (0: no limit)
	double op_seconds = 10;	 // one plugin call that does not return (0: no limit)
	bool record_cases = false;  // props: keep every case's text (see Outcome::case_text)
	bool in_process = false;    // run the job here, unisolated (debuggers)
};

// $NIOV_OP_TIMEOUT and $NIOV_JOB_TIMEOUT (seconds) and $NIOV_NO_WORKER over
// @defaults; false with @error set on a malformed value.
bool limits_from_env(Limits &l, std::string &error);

enum class End {
	result,	     // the job returned and said so
	fault,	     // the job threw PluginFault: the plugin broke the ABI's contract
	error,	     // the job threw something else (an error of ours)
	exited,	     // the child exited without a result
	signaled,    // the child was killed by a signal
	hung,	     // a plugin call did not return within op_seconds (killed)
	timed_out,   // the job did not finish within job_seconds (killed)
	not_started  // fork or pipe failed
};

struct Outcome {
	End end = End::not_started;
	std::string result;	      // End::result: what the job returned
	std::vector<std::string> partial;  // what it emit()ted on the way, in order (no on_partial)
	int status = 0;		      // exit status, or the signal
	double seconds = 0;	      // wall time of the job
	double limit = 0;	      // End::hung, timed_out: the limit it ran past
	// Where the child was when it ended (the breadcrumb).
	std::string plugin, op, context;
	uint32_t step = 0, line = 0, case_no = 0;
	std::string fault_id, fault;  // what the code saw coming (or the PluginFault)
	// Output the child wrote: stdout is a finding in itself.
	uint64_t stdout_bytes = 0;
	std::string stdout_head;      // its first bytes
	std::string stdout_op;	      // the plugin call that wrote them, if known
	uint64_t stderr_bytes = 0;
	std::string sanitizer;	      // the first lines of a sanitizer report on stderr
	std::string case_text;	      // Limits::record_cases: the case running at the end
	bool case_truncated = false;

	// The job returned, wrote nothing to stdout, and no sanitizer spoke.
	bool ok() const { return end == End::result && stdout_bytes == 0 && sanitizer.empty(); }
	// A stable id for the finding ("plugin.signal", "plugin.stdout", ...).
	std::string id() const;
	// One line: what happened and where ("killed by SIGSEGV in fill").
	std::string what() const;
	// "in fill of P, step 3 (line 7)" from the breadcrumb.
	std::string where() const;
};

using Job = std::function<std::string()>;

// Inside a job: send one partial result now (a batch's finished items), so
// the parent has it even if the job dies later.
void emit(const std::string &partial);

// Inside a job: send the next piece of a result too large to hold twice (a
// report written as it is made).  A plain job's on_partial gets it with
// kChunkMark in front; a batch item's goes to Batch::chunk.
inline constexpr char kChunkMark = 'C';
void stream(std::string_view piece);

// Run @job in a forked child within @lim.  The child's stderr is passed on
// to ours (capped) after the job ends.  @on_partial, if given, sees each
// emit()ted partial result as it arrives, and is the only one to: a job may
// stream a report of any size through it.  Without it they are kept in
// Outcome::partial.
// (@so_far: the outcome as it stands, e.g. the stdout bytes seen until now;
// returning false kills the child: the parent needs nothing more from it.)
using PartialFn = std::function<bool(const std::string &partial, const Outcome &so_far)>;
Outcome run(const Job &job, const Limits &lim = {}, const PartialFn &on_partial = {});

// Items 0..n-1 of one kind (scenarios, properties) in as few workers as
// possible: @item(k) runs in a child and returns item k's result; the parent
// gets it through @done as soon as it is finished.  A worker that dies in
// item k reports it through @died, and item k+1 starts in a fresh worker.
// Either callback returns false to stop the batch there.
struct Batch {
	size_t items = 0;
	std::function<std::string(size_t k)> item;
	// @printed: bytes item k wrote to stdout (the child flushes before each result).
	std::function<bool(size_t k, const std::string &result, uint64_t printed, const Outcome &so_far)> done;
	std::function<bool(size_t k, const Outcome &died)> died;
	// The pieces item k stream()s before its result, as they come.
	std::function<void(size_t k, std::string_view piece)> chunk;
};
void run_batch(const Batch &b, const Limits &lim = {});

// The fault_id of a job (End::error) whose input went past a documented
// limit (LimitError): bad input, exit 2, never a finding on the code.
inline constexpr const char *kLimitId = "input.limit";

// The finding ids of a plugin that broke out of its contract.
inline constexpr const char *kFaultIds[] = {
	"plugin.exit",	    "plugin.signal",	 "plugin.hang",	     "plugin.timeout",
	"plugin.stdout",    "plugin.sanitizer",	 "plugin.leak",	     "abi.null_binding",
	"abi.frags_outside", "abi.contract",	 "internal.error",
};

}  // namespace niov::worker
