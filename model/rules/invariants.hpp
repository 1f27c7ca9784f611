// The invariants, one list with stable ids.  Every engine (replay, properties,
// fuzzing, proofs) and every report names a violation by these ids; adding an
// invariant means adding a row here and a check in checks.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace niov {

enum class Inv : unsigned char {
	sizing_pow2_range,
	sizing_aligns_dmabuf,
	sizing_aligns_segments,
	sizing_maximal,
	sizing_loop_matches_decl,
	bind_sg_covers_dmabuf,
	bind_niov_count,
	bind_niov_dma,
	rx_shift_matches_attr,
	rx_pp_order,
	lookup_index_in_table,
	lookup_off_size,
	lookup_byte_map,
	frag_within_niov,
	frag_limits,
	frag_progress,
	frag_count,
	frag_bytes_accounted,
	frag_payload,
	skb_size_goal,
	tcp_truesize_covers_bytes,
	tcp_truesize_no_wrap,
	tcp_wmem_nonneg,
	tcp_wmem_sum,
	tcp_freed_to_zero,
	dev_desc_len_exact,
	dev_desc_count,
	zcrx_rx_buf_len,
	abi_fill_errno,
	rx_alloc_byte_map,
	rx_alloc_count,
	res_no_leak,
	res_refs_balanced,
	res_no_warn,
	fault_errno,
	count_
};

struct InvariantInfo {
	Inv inv;
	std::string_view id;
	std::string_view statement;
};

inline constexpr std::array<InvariantInfo, static_cast<size_t>(Inv::count_)> kInvariants{{
	{Inv::sizing_pow2_range, "sizing.pow2_range",
	 "the niov size is a power of two in [PAGE_SIZE, 2 MiB] (TX) or the requested rx-buf-size (RX)"},
	{Inv::sizing_aligns_dmabuf, "sizing.aligns_dmabuf", "the niov size divides the dmabuf size"},
	{Inv::sizing_aligns_segments, "sizing.aligns_segments",
	 "the niov size divides every DMA segment address and length"},
	{Inv::sizing_maximal, "sizing.maximal",
	 "no larger power of two up to 2 MiB aligns the dmabuf size and every segment"},
	{Inv::sizing_loop_matches_decl, "sizing.loop_matches_decl",
	 "the kernel's halving loop picks the declarative size"},
	{Inv::bind_sg_covers_dmabuf, "bind.sg_covers_dmabuf",
	 "the DMA segments add up to exactly the dmabuf size"},
	{Inv::bind_niov_count, "bind.niov_count", "num_niovs == dmabuf_size >> niov_shift <= U32_MAX"},
	{Inv::bind_niov_dma, "bind.niov_dma",
	 "every niov's DMA address is the byte map at its dmabuf offset"},
	{Inv::rx_shift_matches_attr, "rx.shift_matches_attr",
	 "an accepted rx-buf-size gives 1 << niov_shift == rx-buf-size"},
	{Inv::rx_pp_order, "rx.pp_order",
	 "the page_pool order is niov_shift - PAGE_SHIFT (a memory-provider pool is not held to MAX_PAGE_ORDER)"},
	{Inv::lookup_index_in_table, "lookup.index_in_table", "get_niov_at returns a niov of the table"},
	{Inv::lookup_off_size, "lookup.off_size", "get_niov_at: off + size == niov size and size >= 1"},
	{Inv::lookup_byte_map, "lookup.byte_map",
	 "niov DMA address + off equals the byte map at the looked-up offset"},
	{Inv::frag_within_niov, "frag.within_niov", "a frag never crosses the end of its niov"},
	{Inv::frag_limits, "frag.limits",
	 "a frag is at most the niov remainder, the length left, the iov remainder and the device max frag"},
	{Inv::frag_progress, "frag.progress", "a frag is empty only for an empty iov element"},
	{Inv::frag_count, "frag.count", "an skb holds at most MAX_SKB_FRAGS frags"},
	{Inv::frag_bytes_accounted, "frag.bytes_accounted",
	 "the frag lengths add up to the skb length and to the bytes the send accepted"},
	{Inv::frag_payload, "frag.payload",
	 "the DMA bytes a frag points at are the dmabuf bytes the send named"},
	{Inv::skb_size_goal, "skb.size_goal", "sendmsg builds no skb longer than size_goal"},
	{Inv::tcp_truesize_covers_bytes, "tcp.truesize_covers_bytes",
	 "every skb's truesize >= head truesize + its payload bytes"},
	{Inv::tcp_truesize_no_wrap, "tcp.truesize_no_wrap", "no truesize update wraps the u32"},
	{Inv::tcp_wmem_nonneg, "tcp.wmem_nonneg", "sk_wmem_queued >= 0"},
	{Inv::tcp_wmem_sum, "tcp.wmem_sum", "sk_wmem_queued == the sum of the queued skbs' truesize"},
	{Inv::tcp_freed_to_zero, "tcp.freed_to_zero", "sk_wmem_queued is 0 once every skb is freed"},
	{Inv::dev_desc_len_exact, "dev.desc_len_exact",
	 "the device's descriptors encode every frag length exactly"},
	{Inv::dev_desc_count, "dev.desc_count",
	 "the device's per-packet descriptor and frag limits hold"},
	{Inv::zcrx_rx_buf_len, "zcrx.rx_buf_len",
	 "an accepted zcrx rx_buf_len is a power of two >= PAGE_SIZE within the area's alignment"},
	{Inv::abi_fill_errno, "abi.fill_errno", "the fill returns 0, -EMSGSIZE or -EFAULT, nothing else"},
	{Inv::rx_alloc_byte_map, "rx.alloc_byte_map",
	 "every niov the RX allocator hands out is a niov of the table, at a dmabuf offset inside the dmabuf "
	 "and aligned to the niov size, whose DMA address is the byte map at that offset"},
	{Inv::rx_alloc_count, "rx.alloc_count",
	 "the RX allocator hands out every niov of the binding exactly once, then fails with -ENOMEM, and "
	 "hands the same niovs out again once they are freed"},
	{Inv::res_no_leak, "res.no_leak",
	 "every allocation, dma-buf reference and DMA mapping is given back once the binding is unbound "
	 "(or its bind failed)"},
	{Inv::res_refs_balanced, "res.refs_balanced",
	 "niov and binding references are back where they started once every frag is released and the "
	 "binding unbound"},
	{Inv::res_no_warn, "res.no_warn", "the code hits no WARN and no BUG"},
	{Inv::fault_errno, "fault.errno",
	 "a bind whose Nth call of an injected kind fails returns the errno the kernel gives for a failure "
	 "at that step"},
}};
static_assert(static_cast<size_t>(Inv::count_) <= 64, "Checker keeps one bit per invariant");

constexpr std::string_view id(Inv inv) { return kInvariants[static_cast<size_t>(inv)].id; }

}  // namespace niov
