// Loading an implementation plugin (a shared object exporting niov_impl_get)
// and driving it as an Impl.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "frag_arena.hpp"
#include "impl.hpp"
#include "plugin_fault.hpp"

namespace niov {

// Thrown when a plugin cannot be used; the message is one line for the user.
struct PluginError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

class PluginImpl final : public Impl {
public:
	explicit PluginImpl(const std::string &path);  // throws PluginError
	~PluginImpl() override;
	PluginImpl(const PluginImpl &) = delete;
	PluginImpl &operator=(const PluginImpl &) = delete;

	std::string name() const override;
	const std::string &path() const { return path_; }  // as given to the constructor
	std::string description() const;
	std::string must_catch() const;
	std::string policy() const;  // the equivalent policy overrides, if any
	// Where the code's answers of @answer_class ("bind", "lookup", ...)
	// come from ("net/core/devmem.c:190 net_devmem_bind_dmabuf()"), "" when
	// the plugin does not say (ops->code_sites, ABI v3).
	std::string code_site(std::string_view answer_class) const;
	std::string code_sites() const;  // all of them, as the plugin says them
	uint32_t abi_version() const;
	uint32_t caps() const override { return caps_; }  // NIOV_CAP_* (v1: NIOV_CAPS_V1)
	std::string rules() const;		 // the preset it declares, "" if none
	BindResult bind(const Scenario &sc) override;
	void unbind() override;
	std::optional<uint64_t> niov_dma(uint64_t idx) const override;
	LookupResult lookup(uint64_t virt) const override;
	int fill(niov_skb &skb, IovIter &it, int32_t length) override;
	std::optional<int> pp_init(unsigned order) override;
	std::optional<int> zcrx_validate(const Scenario &sc, uint32_t len,
					 unsigned area_max_shift) override;
	std::optional<int> encode_tx_desc(uint32_t frag_len, std::vector<uint32_t> &lens) override;
	void frag_release(const Frag &f) override;
	bool takes_frag_refs() const override { return v2() && ops_->frag_release; }
	std::optional<niov_resources> resources() const override;
	std::optional<RxAllocResult> rx_alloc() override;
	void rx_free(uint64_t idx) override;

	// Fault injection (NIOV_CAP_FAULTS): fail the @nth call of @kind (0:
	// count only); the calls of @kind since the last arm.
	bool has_faults() const;
	void fault_arm(uint32_t kind, uint64_t nth);
	uint64_t fault_calls(uint32_t kind) const;

	// Memory the plugin keeps across @cycles bind/unbind cycles of its last
	// successful devmem bind (after ten warm-up cycles), counted only when
	// each half of the cycles kept at least an allocation per cycle; nullopt
	// when there was no bind, or nothing was kept that way.
	struct Leak {
		uint64_t bytes = 0;
		unsigned binds = 0;
	};
	std::optional<Leak> leak_check(unsigned cycles = 8);

private:
	const uint64_t key_;  // tells this plugin's calls apart in the breadcrumb
	FragArena frags_;     // the fill's own frag array
	niov_impl_config last_cfg_{};  // the last successful bind, for leak_check
	niov_bind_args last_args_{};
	std::vector<niov_dma_seg> last_segs_;
	bool has_last_ = false;
	bool v2() const { return ops_->abi_version >= 2; }
	std::string take_extack();

	void *handle_ = nullptr;
	const niov_impl_ops *ops_ = nullptr;
	void *binding_ = nullptr;
	niov_impl_config cfg_{};
	std::vector<niov_dma_seg> segs_;
	Dir dir_ = Dir::tx;
	unsigned zcrx_shift_ = 0;
	std::string path_;
	uint32_t caps_ = 0;
	char extack_[256] = {};	 // where a failing bind writes its message
};

// The plugin named by --impl or, for test binaries, $NIOV_IMPL (nullptr if
// neither is set).
std::unique_ptr<PluginImpl> plugin_from_env();

niov_impl_config plugin_config(const Config &cfg);

// The rules a plugin is checked against: the preset it declares (v2), else
// the preset its name names, else tx-autosize (every broken variant is
// tx_autosize.c with one slip).  Throws PluginError for a declared name
// that is no preset.
Preset plugin_rules(const PluginImpl &p);

}  // namespace niov
