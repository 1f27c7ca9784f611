#!/usr/bin/env bash
# The fuzz harness with a plugin: its work budget (fuzz/budget.hpp) holds the
# model and the plugin alike: an input whose model run goes past it is
# skipped, but a plugin past it while the model stayed inside built other
# frags than the model, a difference the harness must report, not an input
# to skip; and a difference found by digest is worded frag by frag.
# usage: budget_test.sh NIOVCHECK FUZZ_REPLAY_SEND CORRECT_PLUGIN BYTE_FRAGS_PLUGIN
set -u
[ $# -eq 4 ] || { echo "usage: $0 NIOVCHECK FUZZ_REPLAY_SEND CORRECT_PLUGIN BYTE_FRAGS_PLUGIN" >&2; exit 2; }
bin=$1 driver=$2 correct=$3 byte_frags=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export NIOV_FAILURE_DIR=$tmp/failures

# Nine frags for the model (2 MiB niovs, nine skbs of a 512 KiB send); one
# frag per byte for byte_frags, 524,288 of them: past the scenario limit
# too, where the harness used to skip the input.
cat >"$tmp/small.scn" <<'SCN'
rules tx-autosize
dir tx
sg 0x40000000 2M
send 0+512K
SCN
"$bin" corpus encode --target send "$tmp/small.scn" "$tmp/small.bin" || bad "encode small.scn"

NIOV_IMPL=$correct "$driver" "$tmp/small.bin" >"$tmp/correct.log" 2>&1 ||
	bad "the correct plugin on a 512 KiB send: exit $?: $(tail -2 "$tmp/correct.log")"
NIOV_IMPL=$byte_frags "$driver" "$tmp/small.bin" >"$tmp/bytes.log" 2>&1
rc=$?
[ $rc -ne 0 ] || bad "byte_frags past the budget was skipped as an input (exit 0)"
grep -q "niovcheck-fuzz send: differential .*fuzz budget" "$tmp/bytes.log" ||
	bad "no differential finding naming the budget: $(grep -m1 niovcheck-fuzz "$tmp/bytes.log")"

# A difference the harness finds by digest (fuzz/harness.cpp) is worded
# from a recorded run: the first frag that differs, not the digest.  One skb
# each: 17 bytes in one frag, or in MAX_SKB_FRAGS frags of a byte.
cat >"$tmp/frag.scn" <<'SCN'
rules tx-autosize
dir tx
sg 0x40000000 2M
send 0+17
SCN
"$bin" corpus encode --target send "$tmp/frag.scn" "$tmp/frag.bin" || bad "encode frag.scn"
NIOV_IMPL=$byte_frags "$driver" "$tmp/frag.bin" >"$tmp/frag.log" 2>&1
grep -q "niovcheck-fuzz send: differential .*skb 0 frag 0: model niov 0 off 0x0 len 17 .*plugin niov 0 off 0x0 len 1 " "$tmp/frag.log" ||
	bad "the difference is not worded by frag: $(grep -m1 'niovcheck-fuzz send' "$tmp/frag.log")"

# The era whose lookup has no bounds check wraps this send past 2^64 into
# a 2 GiB run of page frags: the model's own run stops at the budget and
# the input is skipped, quickly (the estimate saw 4 KiB inside the dmabuf).
cat >"$tmp/wrap.scn" <<'SCN'
rules baseline-unfixed
dir tx
dmabuf_size 0xffffffffffffff8a
sg 0x0 0xfffff000
send 0xffffffffffffef8a+0x7ffff000
SCN
"$bin" corpus encode --target send "$tmp/wrap.scn" "$tmp/wrap.bin" || bad "encode wrap.scn"
"$driver" "$tmp/wrap.bin" >"$tmp/wrap.log" 2>&1 || bad "the wrapping send: exit $?: $(tail -2 "$tmp/wrap.log")"

[ $fail -eq 0 ] && echo "budget_test: ok"
exit $fail
