// Where the code is, kept where a parent process can read it after the code
// died: which plugin operation is running, for which scenario, property or
// case, at which step.  PluginImpl brackets every plugin call with an
// OpScope; the engines name the scenario or case and the step.
//
// Outside a forked worker the breadcrumb is ordinary process memory (the
// fuzz targets read it themselves, e.g. when a plugin calls exit()); a
// worker points it at a MAP_SHARED page for the job (worker.hpp).
#pragma once

#include <atomic>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace niov {

// Every operation a plugin exports, and the loader's own call of
// niov_impl_get.  The names are the ABI's field names.
enum class PluginOp : uint32_t {
	none,
	get,
	bind,
	unbind,
	niov_shift,
	num_niovs,
	niov_dma_addr,
	get_niov_at,
	fill,
	pp_init,
	zcrx_validate,
	encode_tx_desc,
	frag_release,
	resources,
	rx_alloc,
	rx_free,
	zcrx_register,
	fault_arm,
	fault_calls,
	count_
};

std::string_view op_name(PluginOp op);

// Fixed-size and pointer-free: it is read by another process.
struct Breadcrumb {
	std::atomic<uint64_t> progress;	 // bumped at every plugin call's start and end
	std::atomic<uint32_t> op;	 // the PluginOp running, none between calls
	uint32_t step;			 // scenario step (0: the bind)
	uint32_t line;			 // its line in the scenario file
	uint32_t case_no;		 // props: cases started in this batch
	uint64_t plugin_key;		 // which PluginImpl last wrote @plugin
	char plugin[512];		 // the plugin's path
	char context[512];		 // the job's own words: "scenario FILE", "property P"
	char fault_id[48];		 // set when the code saw its own end coming
	char fault[464];		 //   ("plugin.exit", "called exit(0)")
	uint32_t stdout_op;		 // first PluginOp that left bytes in stdout's buffer
	uint32_t record_cases;		 // props: keep every case's text in @case_text
	uint32_t case_len;
	uint32_t case_truncated;
	char case_text[192 * 1024];	 // the running case, as a scenario file
};

namespace detail {
extern Breadcrumb *current_breadcrumb;
}
// Inline: every plugin call reads it twice (OpScope).
inline Breadcrumb &breadcrumb() { return *detail::current_breadcrumb; }
// Point breadcrumb() at @b (a worker's shared page); nullptr: the process' own.
void use_breadcrumb(Breadcrumb *b);

// Bounded, NUL-terminated copy into a breadcrumb field (async-signal-safe).
void crumb_copy(char *dst, size_t cap, std::string_view src);
template <size_t N>
void crumb_set(char (&dst)[N], std::string_view src) {
	crumb_copy(dst, N, src);
}

// The engine's label of the job ("scenario corpora/x.scn") and its step.
void crumb_context(std::string_view what);
inline void crumb_step(uint32_t step, uint32_t line) {
	Breadcrumb &b = breadcrumb();
	b.step = step;
	b.line = line;
}

// Brackets one plugin call.  Cheap: two stores and a counter, the plugin's
// path copied only when another plugin wrote it last.  Inline, as a send
// with a plugin makes several calls per frag (out of line, with libc's
// __fpending through the PLT, it was 6 % of the send target's replay).
class OpScope {
public:
	OpScope(PluginOp op, uint64_t plugin_key, const std::string &plugin_path)
		: b_(breadcrumb()), prev_(b_.op.load(std::memory_order_relaxed)) {
		if (b_.plugin_key != plugin_key)
			name_plugin(plugin_key, plugin_path);
		b_.op.store(static_cast<uint32_t>(op), std::memory_order_relaxed);
		bump();
	}
	~OpScope() {
		// Bytes a plugin printf()ed wait in stdout's buffer: name the call
		// now, the parent sees them only when they are flushed.
		if (b_.stdout_op == 0 && stdout_pending())
			b_.stdout_op = b_.op.load(std::memory_order_relaxed);
		b_.op.store(prev_, std::memory_order_relaxed);
		bump();
	}
	OpScope(const OpScope &) = delete;
	OpScope &operator=(const OpScope &) = delete;

private:
	void name_plugin(uint64_t plugin_key, const std::string &plugin_path);
	// One writer, the thread calling the plugin; the parent only reads it.
	// A plain store of the next value, not a locked add.
	void bump() {
		b_.progress.store(b_.progress.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
	}
	// __fpending(stdout) without the call: glibc's FILE keeps the bytes
	// written and not yet flushed between these two pointers.
	static bool stdout_pending() { return stdout->_IO_write_ptr != stdout->_IO_write_base; }

	Breadcrumb &b_;
	uint32_t prev_;
};

// The code noticed it is about to die (a plugin called exit(), wrote past its
// frags): say so in the breadcrumb, then let the installed reporter speak
// (the fuzz harness prints its failure line).  Async-signal-safe up to the
// reporter.
void note_fault(const char *id, const char *what);
using FaultReporter = void (*)(const Breadcrumb &);
void set_fault_reporter(FaultReporter r);
FaultReporter fault_reporter();

}  // namespace niov

// Called by the exported exit()/_exit()/_Exit() of our executables
// (exit_guard.c): inside a plugin operation it reports "called NAME(STATUS)"
// and aborts; outside one it returns and the call goes on to libc.
extern "C" void niov_exit_hook(const char *name, int status);
