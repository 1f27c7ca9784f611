#!/usr/bin/env bash
# `niovcheck replay FILE --impl P` with P built --asan, niovcheck itself
# plain: it reruns under the ASan runtime and reports the sanitizer's stop
# as a finding naming the tree's function, file:line and the scenario.  The
# tree before the May 2026 fix must give the tx_vec over-read; the tree
# after it must come out clean (no finding, exit 0), so the test fails both
# when a report is missed and when one is invented.
set -uo pipefail
niovcheck=$1 fixture=$2 prefix_tree=$3 cache=$4 scenario=$5 make_variant=$6
bash "$make_variant" tx-era "$prefix_tree" "size/sg fix" || exit 2
bad=$("$niovcheck" kernel build "$prefix_tree" --asan --cache "$cache" | sed -n 's/^plugin //p') || exit 2
good=$("$niovcheck" kernel build "$fixture" --asan --cache "$cache" | sed -n 's/^plugin //p') || exit 2
out=$("$niovcheck" replay "$scenario" --impl "$bad" 2>/dev/null); rc=$?
echo "$out"
[ $rc = 1 ] || { echo "FAIL: exit $rc on the tree before the fix, want 1"; exit 1; }
echo "$out" | grep -qE "^FINDING heap-buffer-overflow in net_devmem_get_niov_at\(\) at $prefix_tree/net/core/devmem.c:[0-9]+ \(AddressSanitizer\) on scenario $scenario" ||
	{ echo "FAIL: no finding naming net_devmem_get_niov_at and the scenario"; exit 1; }
echo "$out" | grep -q "  replay: niovcheck replay $scenario --impl $bad" || { echo "FAIL: no replay line"; exit 1; }
out=$("$niovcheck" replay "$scenario" --impl "$good" 2>&1); rc=$?
echo "$out" | tail -1
[ $rc = 0 ] && ! echo "$out" | grep -q FINDING || { echo "FAIL: the fixed tree: exit $rc"; echo "$out"; exit 1; }
