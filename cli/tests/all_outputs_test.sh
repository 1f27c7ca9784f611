#!/usr/bin/env bash
# A report that cannot be written is exit 2 with one line, never a silent 0
# and never a verdict thrown away after the work:
#  - an unwritable --junit (missing folder, a folder, a read-only place) is
#    refused before any engine runs;
#  - --junit /dev/full, stdout to /dev/full and a closed stdout: exit 2;
#  - the same for the other commands' stdout (replay, check --json).
# usage: all_outputs_test.sh NIOVCHECK LIB_DIR SCENARIO
set -u
bin=$1 lib=$2 scn=$3
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
good=$lib/libniov_tx_autosize.so
budget=(--engines replay,props --cases 100)

# Refused before the engines: stderr is that one line, no engine's progress.
mkdir -p "$tmp/adir"
for junit in "$tmp/missing/x.xml" "$tmp/adir" /proc/version; do
	"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/w" --junit "$junit" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "--junit" "$tmp/err" ||
		bad "--junit $junit: exit $rc, want 2 with one line before any engine: $(cat "$tmp/err")"
done

last_line_says() { [ "$(tail -1 "$1")" != "" ] && tail -1 "$1" | grep -qE "$2"; }
"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/w" --junit /dev/full >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && last_line_says "$tmp/err" "junit /dev/full: cannot write" || bad "--junit /dev/full: exit $rc: $(tail -1 "$tmp/err")"
"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/w" >/dev/full 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && last_line_says "$tmp/err" "stdout" || bad "all >/dev/full: exit $rc: $(tail -1 "$tmp/err")"
"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/w" >&- 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "all with stdout closed: exit $rc: $(cat "$tmp/err")"

for args in "replay $scn" "check $scn --json" "explain $scn --impl $good"; do
	# shellcheck disable=SC2086
	"$bin" $args >/dev/full 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$args >/dev/full: exit $rc: $(cat "$tmp/err")"
	# shellcheck disable=SC2086
	"$bin" $args >&- 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$args with stdout closed: exit $rc: $(cat "$tmp/err")"
done

[ $fail -eq 0 ] && echo "all_outputs_test: ok"
exit $fail
