#!/usr/bin/env bash
# The era (b) tree before the May 2026 fix, built --asan: the lookup of a
# TX dmabuf's last partial page must stop with ASan's heap-buffer-overflow
# in the tree's own net_devmem_get_niov_at().  The test fails if the
# over-read goes unseen (the test program would then print "passed").
set -uo pipefail
niovcheck=$1 tree=$2 cache=$3 prog=$4 make_variant=$5
bash "$make_variant" tx-era "$tree" "size/sg fix" || exit 2
plugin=$("$niovcheck" kernel build "$tree" --asan --cache "$cache" | sed -n 's/^plugin //p') || exit 2
out=$(ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(gcc -print-file-name=libasan.so) "$prog" "$plugin" prefix 2>&1)
echo "$out" | grep -E 'ERROR: AddressSanitizer|SUMMARY'
echo "$out" | grep -q 'heap-buffer-overflow .*net/core/devmem.c:[0-9]* in net_devmem_get_niov_at'
