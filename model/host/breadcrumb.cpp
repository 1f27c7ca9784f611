#include "breadcrumb.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace niov {

namespace {

Breadcrumb g_own{};
FaultReporter g_reporter = nullptr;

constexpr std::array<std::string_view, static_cast<size_t>(PluginOp::count_)> kOpNames{
	"none",		 "niov_impl_get", "bind",	   "unbind",	    "niov_shift",
	"num_niovs",	 "niov_dma_addr", "get_niov_at",   "fill",	    "pp_init",
	"zcrx_validate", "encode_tx_desc", "frag_release", "resources",	    "rx_alloc",
	"rx_free",	 "zcrx_register", "fault_arm",	   "fault_calls",
};

}  // namespace

std::string_view op_name(PluginOp op) {
	const auto i = static_cast<size_t>(op);
	return i < kOpNames.size() ? kOpNames[i] : "?";
}

Breadcrumb *detail::current_breadcrumb = &g_own;

void use_breadcrumb(Breadcrumb *b) { detail::current_breadcrumb = b ? b : &g_own; }

void crumb_copy(char *dst, size_t cap, std::string_view src) {
	if (cap == 0)
		return;
	const size_t n = src.size() < cap - 1 ? src.size() : cap - 1;
	std::memcpy(dst, src.data(), n);
	dst[n] = 0;
}

void crumb_context(std::string_view what) {
	Breadcrumb &b = breadcrumb();
	crumb_set(b.context, what);
	b.step = b.line = b.case_no = 0;
}

void OpScope::name_plugin(uint64_t plugin_key, const std::string &plugin_path) {
	crumb_set(b_.plugin, plugin_path);
	b_.plugin_key = plugin_key;
}

void note_fault(const char *id, const char *what) {
	Breadcrumb &b = breadcrumb();
	crumb_set(b.fault_id, id);
	crumb_set(b.fault, what);
	if (g_reporter)
		g_reporter(b);
}

void set_fault_reporter(FaultReporter r) { g_reporter = r; }
FaultReporter fault_reporter() { return g_reporter; }

}  // namespace niov

extern "C" void niov_exit_hook(const char *name, int status) {
	using namespace niov;
	const auto op = static_cast<PluginOp>(breadcrumb().op.load(std::memory_order_relaxed));
	if (op == PluginOp::none)
		return;
	// A plugin ending the process would look like a run that finished.
	char what[96];
	std::snprintf(what, sizeof(what), "called %s(%d) in %.*s", name, status,
		      static_cast<int>(op_name(op).size()), op_name(op).data());
	note_fault("plugin.exit", what);
	std::fprintf(stderr, "niovcheck: plugin %s %s\n", breadcrumb().plugin, what);
	std::abort();
}
