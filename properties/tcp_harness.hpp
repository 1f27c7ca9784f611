// The system under test of the stateful TCP properties: one TX binding, the
// model's socket and the plugin's socket driven op by op (the model's
// checks.hpp Socket, so a case replays exactly as `niovcheck replay` runs
// its scenario), and an independent account of every queued skb's length,
// truesize and frags kept with exact (64-bit signed) arithmetic.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "checks.hpp"

namespace niov::props {

// The oracle's view of one queued skb.
struct AcctSkb {
	uint64_t len = 0;
	int64_t truesize = 0;  // exact: below 0 or above U32_MAX is a wrap
	std::vector<Frag> frags;
};

class TcpHarness {
public:
	// @own: the invariant step() checks after every op.
	TcpHarness(const Scenario &base, Impl *impl, std::string impl_path, Inv own);
	~TcpHarness();
	TcpHarness(const TcpHarness &) = delete;
	TcpHarness &operator=(const TcpHarness &) = delete;

	bool bound() const;
	// Append @op to the scenario and run it on every side.  RC_FAILs when
	// the sides differ or the oracle and the model disagree on the queue.
	void apply(Op op);
	// RC_FAIL unless the property's invariant holds on the oracle's state
	// and no side reported an unexcused violation.
	void check(Inv own) const;
	void step(Op op) {
		apply(std::move(op));
		check(own_);
	}

	const Scenario &scenario() const { return *sc_; }
	const std::string &impl_path() const { return impl_path_; }
	const std::vector<AcctSkb> &queue() const { return q_; }

private:
	struct Side;
	void account(const Op &op, const OpReport &rep);
	void ack(uint64_t n);
	void split(uint64_t at);
	void shift(uint64_t n);

	std::unique_ptr<Scenario> sc_;	// stable: the sides keep references
	ModelImpl model_;
	std::string impl_path_;
	Inv own_;
	std::vector<std::unique_ptr<Side>> sides_;
	std::vector<AcctSkb> q_;
	int64_t wmem_ = 0;	   // exact sk_wmem_queued
	int32_t reported_ = 0;	   // the model's sk_wmem_queued after the last op
	bool freed_ = false;	   // the last op was a free
};

}  // namespace niov::props
