#!/usr/bin/env bash
# A full disk is the suite's problem, never the code under test's:
#  - `all` whose work folder is on a full disk: exit 2 with one line naming
#    the folder, not a finding blaming a correct plugin;
#  - `props` with $NIOV_FAILURE_DIR on a full disk: no empty .scn left
#    behind, no replay command naming a file that is not there, and the
#    output says the case could not be written.
# The full disk is a small tmpfs in a private mount namespace (unshare), so
# nothing outside the test sees it; without one the test is skipped (77).
# usage: all_full_disk_test.sh NIOVCHECK LIB_DIR
set -u
if [ "${NIOV_FULL_DISK_NS:-}" != 1 ]; then
	for ns in "unshare -rm" "unshare -m"; do
		if $ns true 2>/dev/null; then
			NIOV_FULL_DISK_NS=1 exec $ns bash "$0" "$@"
		fi
	done
	echo "all_full_disk_test: no private mount namespace here (skipped)"
	exit 77
fi
bin=$1 lib=$2
tmp=$(mktemp -d)
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
mkdir -p "$tmp/small"
mount -t tmpfs -o size=4m tmpfs "$tmp/small" || { echo "all_full_disk_test: cannot mount a tmpfs (skipped)"; exit 77; }
fill() { dd if=/dev/zero of="$tmp/small/filler" bs=64k 2>/dev/null; sync; }
good=$lib/libniov_tx_autosize.so

"$bin" all --impl "$good" --engines replay,props --cases 50 --work-dir "$tmp/small/w" >/dev/null 2>"$tmp/err" ||
	bad "all with room on the disk: $(tail -1 "$tmp/err")"
mkdir -p "$tmp/small/failures"
fill
"$bin" all --impl "$good" --engines replay,props --cases 50 --work-dir "$tmp/small/w2" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "all on a full disk: exit $rc, want 2 (1 blames the plugin): $(tail -3 "$tmp/out")"
tail -1 "$tmp/err" | grep -q "$tmp/small/w2.*No space left on device" || bad "all on a full disk: last line '$(tail -1 "$tmp/err")'"

NIOV_FAILURE_DIR=$tmp/small/failures "$bin" props --impl "$lib/libniov_truesize_zero.so" \
	--property tcp.truesize_covers_bytes --cases 200 >"$tmp/props.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "props on a full failure folder: exit $rc, want 1 (the property fails)"
empty=$(find "$tmp/small/failures" -name '*.scn*' -size 0 | wc -l)
[ "$empty" -eq 0 ] || bad "props left $empty empty failure file(s): $(ls "$tmp/small/failures")"
grep -q "could not write" "$tmp/props.out" || bad "props does not say the case could not be written"
grep -E "(scenario|replay): " "$tmp/props.out" | grep -oE "$tmp/small/failures/[^ ]+\.scn" | while read -r f; do
	[ -s "$f" ] || { echo "FAIL: props names $f, which is not there"; exit 1; }
done || fail=1

[ $fail -eq 0 ] && echo "all_full_disk_test: ok"
exit $fail
