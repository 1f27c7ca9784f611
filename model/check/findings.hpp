// Which violations a scenario's own inputs already explain.
//
// Engines hunting for rule bugs (properties, fuzzing, the scoreboard) fail on
// any model-vs-plugin difference and on any violation that is not a known
// finding.  Known findings are real and stay in every report; they are just
// not news: an exporter that lies about its sg table, a device asked to carry
// what it cannot (fbnic past 64 KiB, gve chunks smaller than its descriptor
// budget, bnxt past TX_MAX_FRAGS without the segmentation fallback, 64 KiB
// frags on 16-bit length fields before the max-frag cap), the gen_pool bind
// before the May 2026 fix (6.12, baseline-unfixed) taking a dmabuf or sg
// entries that are not whole pages or do not add up, an RX gen_pool bind
// with an sg entry at DMA address 0 (gen_pool's address 0 means "none") or
// with entries that wrap past 2^64 or overlap in DMA space (its frees go
// astray), and any scenario that overrides a preset's policies (partial
// series, judged by the proofs' soundness matrix).
#pragma once

#include "invariants.hpp"
#include "scenario.hpp"

namespace niov {

bool exporter_lies(const Scenario &sc);
// An unchecked gen_pool bind (policy bind=genpool-unchecked) given a TX
// dmabuf size or an sg length that is not a multiple of PAGE_SIZE.
bool unchecked_layout(const Scenario &sc);
// Does a niov of sg entry @s (niovs of 1 << @shift) sit at DMA address 0
// (the entry starts there, or wraps to it)?
bool niov_at_dma_zero(const DmaSeg &s, unsigned shift);
// An RX gen_pool bind with a niov at DMA address 0: gen_pool cannot hand it
// out (its answer 0 means "none").
bool genpool_zero_address(const Scenario &sc);
// An RX gen_pool bind where a free can miss its niov: an sg entry running
// past 2^64 (gen_pool's end_addr wraps and no chunk holds its niovs), an
// empty one at DMA address 0 (its end_addr wraps to U64_MAX), or two
// entries overlapping in DMA space (the free goes to the first chunk that
// holds the address, maybe not the one that handed it out).
bool genpool_frees_astray(const Scenario &sc);
// A partial series: policies that are not the preset's and not the rules a
// run declared (Config::rules_declared).
bool policies_overridden(const Scenario &sc);
bool is_known_finding(const Scenario &sc, Inv inv);
bool is_known_finding(const Scenario &sc, std::string_view invariant_id);

}  // namespace niov
