#!/usr/bin/env bash
# Our kernel-side C (shim, runtime, adapters, fixtures) is warning-free under
# gcc and clang-14: the fixture trees, all our own code, build with -Werror;
# a real tree builds with the warnings on and no warning may name a file of
# ours (the tree's own are its business).  -Wno-unused-parameter as the
# kernel builds: callbacks keep parameters they do not use.
set -uo pipefail
niovcheck=$1 src=$2 cache=$3 real_tree=${4:-}
flags="-Wall -Wextra -Wno-unused-parameter"
status=0
for cc in gcc clang-14; do
	command -v "$cc" >/dev/null || { echo "warnings_test: $cc missing" >&2; exit 2; }
	for fixture in tx-era freelist-era; do
		if ! NIOV_KERNEL_CC=$cc NIOV_KERNEL_CFLAGS="$flags -Werror" \
			"$niovcheck" kernel build "$src/kernel/fixtures/$fixture" --cache "$cache" >/dev/null; then
			echo "FAIL: $fixture does not build warning-free with $cc"
			status=1
		fi
	done
	[ -n "$real_tree" ] || continue
	out=$(NIOV_KERNEL_CC=$cc NIOV_KERNEL_CFLAGS="$flags" "$niovcheck" kernel build "$real_tree" \
		--cache "$cache" --force 2>&1) || { echo "$out"; exit 2; }
	dir=$(echo "$out" | sed -n 's/^plugin \(.*\)\/plugin.so$/\1/p')
	ours=$(grep 'warning:' "$dir/build.log" | grep -E "/kernel/(shim|runtime|adapters|tool)/")
	if [ -n "$ours" ]; then
		echo "FAIL: warnings in our code building $real_tree with $cc:"
		echo "$ours"
		status=1
	fi
done
[ $status = 0 ] && echo "our kernel-side code: no warnings (gcc, clang-14)"
exit $status
