#include "plugin.hpp"

#include <algorithm>
#include <dlfcn.h>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <fmt/format.h>

#include "alloc_meter.hpp"
#include "breadcrumb.hpp"
#include "code_sites.hpp"

namespace niov {

namespace {

uint64_t next_plugin_key() {
	static std::atomic<uint64_t> n{0};
	return ++n;
}

// The breadcrumb keeps the fault too: an engine that catches the exception
// (a property run counts it as a failing case) still reports it by its id.
[[noreturn]] void throw_fault(const char *id, const char *op, const std::string &what) {
	note_fault(id, what.c_str());
	throw PluginFault(id, op, what);
}

}  // namespace

// Brackets one plugin call in the breadcrumb (breadcrumb.hpp).
#define NIOV_PLUGIN_CALL(op) const OpScope call_scope_(PluginOp::op, key_, path_)

niov_impl_config plugin_config(const Config &cfg) {
	niov_impl_config c{};
	c.abi_version = NIOV_IMPL_ABI_VERSION;
	c.page_shift = cfg.page_shift;
	c.max_skb_frags = cfg.max_skb_frags;
	c.device = static_cast<uint32_t>(cfg.device);
	c.dev_tx_max_frag_size = cfg.device_tx_max_frag();
	c.max_page_order = cfg.max_page_order;
	c.mss = cfg.mss;
	return c;
}

PluginImpl::PluginImpl(const std::string &path) : key_(next_plugin_key()), path_(path) {
	// A bare file name is a file here, not a library for dlopen's search
	// path: `--impl libfoo.so` needs no ./ in front.
	const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
	handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
	if (!handle_)
		throw PluginError(fmt::format("{}: cannot load plugin: {}", path, dlerror()));
	using GetFn = const niov_impl_ops *(*)();
	auto get = reinterpret_cast<GetFn>(dlsym(handle_, "niov_impl_get"));
	if (!get)
		throw PluginError(fmt::format("{}: not a niovcheck plugin (no niov_impl_get symbol)", path));
	{
		NIOV_PLUGIN_CALL(get);
		ops_ = get();
	}
	if (!ops_)
		throw PluginError(fmt::format("{}: niov_impl_get() returned NULL", path));
	if (ops_->abi_version < NIOV_IMPL_ABI_MIN_VERSION || ops_->abi_version > NIOV_IMPL_ABI_VERSION)
		throw PluginError(fmt::format("{}: plugin ABI version {}, niovcheck takes {} to {}", path,
					      ops_->abi_version, NIOV_IMPL_ABI_MIN_VERSION,
					      NIOV_IMPL_ABI_VERSION));
	// Fields past v1 exist only in plugins that say they have them.
	if (ops_->abi_version >= 2) {
		caps_ = ops_->caps;
		if (caps_ == 0)
			throw PluginError(fmt::format("{}: ABI v{} plugin declares no capabilities (caps 0); a v1 plugin's "
						      "source sets .abi_version = 1 (plugins/include/niov_impl.h)",
						      path, ops_->abi_version));
		if ((caps_ & NIOV_CAP_RX_ALLOC) && (!ops_->rx_alloc || !ops_->rx_free))
			throw PluginError(fmt::format("{}: declares NIOV_CAP_RX_ALLOC without rx_alloc/rx_free", path));
		if ((caps_ & NIOV_CAP_FAULTS) && (!ops_->fault_arm || !ops_->fault_calls))
			throw PluginError(fmt::format("{}: declares NIOV_CAP_FAULTS without fault_arm/fault_calls", path));
		if ((caps_ & NIOV_CAP_PP_INIT) && !ops_->pp_init)
			throw PluginError(fmt::format("{}: declares NIOV_CAP_PP_INIT without pp_init", path));
		if ((caps_ & NIOV_CAP_TX_DESC) && !ops_->encode_tx_desc)
			throw PluginError(fmt::format("{}: declares NIOV_CAP_TX_DESC without encode_tx_desc", path));
	} else {
		caps_ = NIOV_CAPS_V1;
		// v1: an optional op that is there is the code's own.
		if (ops_->pp_init)
			caps_ |= NIOV_CAP_PP_INIT;
		if (ops_->encode_tx_desc)
			caps_ |= NIOV_CAP_TX_DESC;
	}
	// v2: get_niov_at and fill only where the plugin says it has the path.
	const char *missing = !ops_->bind		? "bind"
			      : !ops_->unbind		? "unbind"
			      : !ops_->niov_shift	? "niov_shift"
			      : !ops_->num_niovs	? "num_niovs"
			      : !ops_->niov_dma_addr	? "niov_dma_addr"
			      : (caps_ & NIOV_CAP_LOOKUP) && !ops_->get_niov_at ? "get_niov_at"
			      : (caps_ & NIOV_CAP_FILL) && !ops_->fill		 ? "fill"
										 : nullptr;
	if (missing)
		throw PluginError(fmt::format("{}: plugin lacks the required operation {}", path, missing));
}

PluginImpl::~PluginImpl() {
	unbind();
	// Keep the object mapped: sanitizers symbolize plugin frames at exit.
}

std::string PluginImpl::name() const { return ops_->name ? ops_->name : path_; }
std::string PluginImpl::description() const { return ops_->description ? ops_->description : ""; }
std::string PluginImpl::must_catch() const { return ops_->must_catch ? ops_->must_catch : ""; }
std::string PluginImpl::policy() const { return ops_->policy ? ops_->policy : ""; }

std::string PluginImpl::code_sites() const {
	return ops_->abi_version >= 3 && ops_->code_sites ? ops_->code_sites : "";
}

std::string PluginImpl::code_site(std::string_view answer_class) const {
	return niov::code_site(code_sites(), answer_class);
}
uint32_t PluginImpl::abi_version() const { return ops_->abi_version; }
std::string PluginImpl::rules() const {
	return ops_->abi_version >= 2 && ops_->rules ? ops_->rules : "";
}

BindResult PluginImpl::bind(const Scenario &sc) {
	unbind();
	cfg_ = plugin_config(sc.cfg);
	dir_ = sc.dir;
	BindResult r;
	reuse_kept(segs_, sc.segs.size());
	for (const auto &s : sc.segs)
		segs_.push_back({s.addr, s.len});
	extack_[0] = 0;
	if (sc.dir == Dir::zcrx && v2() && ops_->zcrx_register) {
		// v2: the registration sees the area's segments itself.
		niov_zcrx_args a{};
		a.rx_buf_len = sc.rx_buf_size.value_or(0);
		a.has_device = sc.zcrx_device ? 1 : 0;
		a.nr_segs = static_cast<uint32_t>(segs_.size());
		a.area_size = sc.dmabuf_size;
		a.segs = segs_.data();
		a.extack = extack_;
		a.extack_len = sizeof(extack_);
		uint32_t shift = 0;
		{
			NIOV_PLUGIN_CALL(zcrx_register);
			r.err = ops_->zcrx_register(&cfg_, &a, &shift);
		}
		if (r.err) {
			r.extack = take_extack();
			return r;
		}
		r.niov_shift = shift;
		r.num_niovs = shift < 64 ? sc.dmabuf_size >> shift : 0;
		zcrx_shift_ = shift;
		return r;
	}
	if (sc.dir == Dir::zcrx) {
		// io_uring zcrx is validated, not bound through devmem.
		const uint32_t len = sc.rx_buf_size.value_or(0);
		r.err = *zcrx_validate(sc, len, zcrx_area_max_shift(sc));
		if (r.err)
			return r;
		r.niov_shift = len ? static_cast<unsigned>(std::countr_zero(len)) : sc.cfg.page_shift;
		r.err = zcrx_area_errno(sc.dmabuf_size, r.niov_shift);
		if (r.err) {
			r.niov_shift = 0;
			return r;
		}
		r.num_niovs = sc.dmabuf_size >> r.niov_shift;
		zcrx_shift_ = r.niov_shift;
		return r;
	}
	niov_bind_args a{};
	a.dir = sc.dir == Dir::tx ? NIOV_DIR_TX : NIOV_DIR_RX;
	a.has_rx_buf_size = sc.rx_buf_size.has_value();
	a.rx_buf_size = sc.rx_buf_size.value_or(0);
	a.nr_segs = static_cast<uint32_t>(segs_.size());
	a.dmabuf_size = sc.dmabuf_size;
	a.segs = segs_.data();
	if (v2()) {
		a.extack = extack_;
		a.extack_len = sizeof(extack_);
	}
	int32_t queue_err = NIOV_QUEUE_NOT_OPENED;
	if (ops_->abi_version >= 3 && a.dir == NIOV_DIR_RX)
		a.queue_err = &queue_err;
	void *b = nullptr;
	{
		NIOV_PLUGIN_CALL(bind);
		r.err = ops_->bind(&cfg_, &a, &b);
	}
	if (queue_err != NIOV_QUEUE_NOT_OPENED)
		r.queue_err = queue_err;
	if (r.err) {
		r.extack = take_extack();
		return r;
	}
	if (r.queue_err && *r.queue_err)
		r.extack = take_extack();
	if (!b)
		throw_fault("abi.null_binding", "bind", "bind returned 0 with a NULL binding");
	binding_ = b;
	{
		NIOV_PLUGIN_CALL(niov_shift);
		r.niov_shift = ops_->niov_shift(binding_);
	}
	{
		NIOV_PLUGIN_CALL(num_niovs);
		r.num_niovs = ops_->num_niovs(binding_);
	}
	last_cfg_ = cfg_;
	last_args_ = a;
	last_segs_ = segs_;
	last_args_.segs = last_segs_.data();
	has_last_ = true;
	return r;
}

void PluginImpl::unbind() {
	if (binding_ && ops_) {
		NIOV_PLUGIN_CALL(unbind);
		ops_->unbind(binding_);
	}
	binding_ = nullptr;
}

std::optional<uint64_t> PluginImpl::niov_dma(uint64_t idx) const {
	uint64_t a = 0;
	if (!binding_)
		return std::nullopt;
	NIOV_PLUGIN_CALL(niov_dma_addr);
	if (ops_->niov_dma_addr(binding_, idx, &a))
		return std::nullopt;
	return a;
}

LookupResult PluginImpl::lookup(uint64_t virt) const {
	LookupResult r;
	if (!binding_ || !ops_->get_niov_at)
		return {-kEFAULT, 0, 0, 0};
	NIOV_PLUGIN_CALL(get_niov_at);
	r.err = ops_->get_niov_at(binding_, virt, &r.idx, &r.off, &r.size);
	if (r.err)
		r.idx = r.off = r.size = 0;
	return r;
}

int PluginImpl::fill(niov_skb &skb, IovIter &it, int32_t length) {
	if (!binding_ || !ops_->fill)
		return -kEINVAL;
	// The plugin fills an array of exactly max_skb_frags entries of its own;
	// the skb gets back no more than that, whatever nr_frags it reports.
	const uint32_t max = cfg_.max_skb_frags;
	niov_skb own{frags_.load(skb.frags, skb.nr_frags, max), skb.nr_frags, skb.len, skb.truesize};
	int e;
	{
		NIOV_PLUGIN_CALL(fill);
		e = ops_->fill(binding_, &own, &it, length);
	}
	if (const std::string outside = frags_.check_and_rearm(); !outside.empty())
		throw_fault("abi.frags_outside", "fill", outside);
	std::copy(own.frags, own.frags + std::min(own.nr_frags, max), skb.frags);
	skb.nr_frags = own.nr_frags;
	skb.len = own.len;
	skb.truesize = own.truesize;
	return e;
}

std::string PluginImpl::take_extack() {
	extack_[sizeof(extack_) - 1] = 0;  // a plugin that forgot the NUL
	std::string m = extack_;
	extack_[0] = 0;
	return m;
}

std::optional<int> PluginImpl::pp_init(unsigned order) {
	if (dir_ == Dir::zcrx)  // no devmem binding: the page_pool check is the core's
		return pp_order_check(zcrx_shift_, cfg_.page_shift, order);
	if (!binding_)
		return std::nullopt;
	if (!(caps_ & NIOV_CAP_PP_INIT)) {
		NIOV_PLUGIN_CALL(niov_shift);
		return pp_order_check(ops_->niov_shift(binding_), cfg_.page_shift, order);
	}
	NIOV_PLUGIN_CALL(pp_init);
	return ops_->pp_init(binding_, order);
}

std::optional<int> PluginImpl::zcrx_validate(const Scenario &sc, uint32_t len,
					     unsigned area_max_shift) {
	if (!ops_->zcrx_validate) {
		ModelImpl m;
		return m.zcrx_validate(sc, len, area_max_shift);
	}
	cfg_ = plugin_config(sc.cfg);
	NIOV_PLUGIN_CALL(zcrx_validate);
	return ops_->zcrx_validate(&cfg_, len, area_max_shift, sc.zcrx_device ? 1 : 0);
}

std::optional<int> PluginImpl::encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) {
	if (!(caps_ & NIOV_CAP_TX_DESC))
		return device_encode_tx_desc(static_cast<Device>(cfg_.device), frag_len, lens);
	// Room for the finest split a device makes (gve: ceil(len / 16383) <=
	// len / 16383 + 1 descriptors, 262,160 for a 4 GiB frag) and one more,
	// so a correct answer is never cut short and judged wrong; an answer
	// past it is wrong whatever it says.  Zeroed each call, so entries a
	// plugin counts but does not write read 0: no more than that, as it
	// runs for every frag (64 entries of slack were 2 % of the send target
	// with a plugin under ASan).
	lens.assign(frag_len / kGveMaxBufSize + 2, 0);
	NIOV_PLUGIN_CALL(encode_tx_desc);
	const int n = ops_->encode_tx_desc(&cfg_, frag_len, lens.data(), static_cast<uint32_t>(lens.size()));
	if (n < 0) {
		lens.clear();
		return n;
	}
	lens.resize(static_cast<size_t>(n) <= lens.size() ? static_cast<size_t>(n) : lens.size());
	return 0;
}

std::optional<PluginImpl::Leak> PluginImpl::leak_check(unsigned cycles) {
	if (!has_last_ || cycles == 0)
		return std::nullopt;
	// Only when bound: a call to unbind() here, on one fuzz input in 4,096,
	// would be an edge count that follows the inputs before.
	if (binding_)
		unbind();
	// The same calls with the same arguments leave a deterministic allocator
	// where it was once warm: anything more after the cycles was kept.
	// Warm means glibc's per-thread cache full (7 chunks of each size), which
	// takes about as many cycles; until then freed chunks still count as in
	// use.
	auto cycle = [this] {
		void *b = nullptr;
		int err;
		{
			NIOV_PLUGIN_CALL(bind);
			err = ops_->bind(&last_cfg_, &last_args_, &b);
		}
		if (err || !b)
			return false;
		NIOV_PLUGIN_CALL(unbind);
		ops_->unbind(b);
		return true;
	};
	for (int i = 0; i < 10; ++i)
		if (!cycle())
			return std::nullopt;
	// Two batches, each judged alone: a leak grows the heap in both by at
	// least one allocation per cycle, while glibc's bookkeeping (a bin split,
	// a cache refilled in a different order) moves it by a few chunks once.
	// One batch over the whole count mistook 96 bytes of such noise for a
	// leak of 12 per bind.
	const unsigned first = cycles / 2, second = cycles - first;
	auto batch_growth = [&cycle](unsigned n) -> std::optional<uint64_t> {
		const uint64_t before = allocated_bytes();
		for (unsigned i = 0; i < n; ++i)
			if (!cycle())
				return std::nullopt;
		const uint64_t after = allocated_bytes();
		return after > before ? after - before : 0;
	};
	const auto grown1 = batch_growth(first);
	const auto grown2 = grown1 ? batch_growth(second) : std::nullopt;
	// One cycle in all: its one batch is judged alone.
	const bool leaked = grown1 && grown2 && (first == 0 || grows_every_cycle(*grown1, first)) &&
			    grows_every_cycle(*grown2, second);
	if (!leaked)
		return std::nullopt;
	return Leak{*grown1 + *grown2, cycles};
}

void PluginImpl::frag_release(const Frag &f) {
	if (binding_ && v2() && ops_->frag_release) {
		NIOV_PLUGIN_CALL(frag_release);
		ops_->frag_release(binding_, &f);
	}
}

std::optional<niov_resources> PluginImpl::resources() const {
	if (!v2() || !ops_->resources)
		return std::nullopt;
	niov_resources r{};
	NIOV_PLUGIN_CALL(resources);
	ops_->resources(&r);
	return r;
}

std::optional<RxAllocResult> PluginImpl::rx_alloc() {
	if (!(caps_ & NIOV_CAP_RX_ALLOC) || !binding_ || dir_ != Dir::rx)
		return std::nullopt;
	RxAllocResult r;
	NIOV_PLUGIN_CALL(rx_alloc);
	r.err = ops_->rx_alloc(binding_, &r.niov.idx, &r.niov.virt, &r.niov.dma);
	if (r.err)
		r.niov = {};
	return r;
}

void PluginImpl::rx_free(uint64_t idx) {
	if ((caps_ & NIOV_CAP_RX_ALLOC) && binding_ && dir_ == Dir::rx) {
		NIOV_PLUGIN_CALL(rx_free);
		ops_->rx_free(binding_, idx);
	}
}

bool PluginImpl::has_faults() const { return (caps_ & NIOV_CAP_FAULTS) != 0; }

void PluginImpl::fault_arm(uint32_t kind, uint64_t nth) {
	if (has_faults()) {
		NIOV_PLUGIN_CALL(fault_arm);
		ops_->fault_arm(kind, nth);
	}
}

uint64_t PluginImpl::fault_calls(uint32_t kind) const {
	if (!has_faults())
		return 0;
	NIOV_PLUGIN_CALL(fault_calls);
	return ops_->fault_calls(kind);
}

Preset plugin_rules(const PluginImpl &p) {
	const std::string declared = p.rules();
	if (!declared.empty()) {
		if (auto r = parse_preset(declared))
			return *r;
		throw PluginError(fmt::format("{}: declares rules '{}', which is no preset of this niovcheck",
					      p.name(), declared));
	}
	return parse_preset(p.name()).value_or(Preset::tx_autosize);
}

std::unique_ptr<PluginImpl> plugin_from_env() {
	const char *p = std::getenv("NIOV_IMPL");
	if (!p || !*p)
		return nullptr;
	return std::make_unique<PluginImpl>(p);
}

}  // namespace niov
