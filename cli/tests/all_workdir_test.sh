#!/usr/bin/env bash
# `niovcheck all` never deletes a file it did not create:
#  - --work-dir naming a folder that holds a user's file: exit 2, one line,
#    the file still there;
#  - --work-dir . beside the plugin under test: exit 2, the plugin intact;
#  - a plugin whose name climbs out of the work area ("ESC...\r/../../../victim"):
#    two runs with the default work folder leave the file it points at
#    alone, and no control byte of the name reaches text or TAP output;
#  - a folder an earlier run made is reused (its marker says it is ours).
# usage: all_workdir_test.sh NIOVCHECK LIB_DIR
set -u
bin=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
budget=(--engines replay)
good=$lib/libniov_tx_autosize.so

mkdir -p "$tmp/user" && echo precious >"$tmp/user/keep.txt"
"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/user" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "--work-dir with a user's file: exit $rc, want 2 with one line: $(cat "$tmp/err")"
[ "$(cat "$tmp/user/keep.txt" 2>/dev/null)" = precious ] || bad "--work-dir deleted the user's file"

mkdir -p "$tmp/here" && cp "$good" "$tmp/here/mine.so"
(cd "$tmp/here" && "$bin" all --impl mine.so "${budget[@]}" --work-dir . >"$tmp/out" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] || bad "--work-dir . beside the plugin: exit $rc, want 2: $(cat "$tmp/err")"
[ -f "$tmp/here/mine.so" ] || bad "--work-dir . deleted the plugin under test"

# The evil name, from a folder two levels down: its path ends at home/victim.
evil=$lib/libniov_mb_evil_name_get.so
mkdir -p "$tmp/home/cwd" && echo precious >"$tmp/home/victim"
for run in 1 2; do
	(cd "$tmp/home/cwd" && "$bin" all --impl "$evil" "${budget[@]}" >"$tmp/evil.out" 2>"$tmp/evil.err"); rc=$?
	[ $rc -eq 0 ] || bad "evil name, run $run: exit $rc: $(tail -2 "$tmp/evil.err")"
	[ "$(cat "$tmp/home/victim" 2>/dev/null)" = precious ] || bad "evil name, run $run: the file outside the work area is gone"
done
(cd "$tmp/home/cwd" && "$bin" all --impl "$evil" "${budget[@]}" --tap >"$tmp/evil.tap" 2>/dev/null)
for f in "$tmp/evil.out" "$tmp/evil.tap"; do
	LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$f" && bad "control bytes of the plugin's name in $(basename "$f")"
done
ls "$tmp/home/cwd/niovcheck-failures" | grep -q '^all-' || bad "no default work folder under niovcheck-failures"

for run in 1 2; do
	"$bin" all --impl "$good" "${budget[@]}" --work-dir "$tmp/w" >/dev/null 2>"$tmp/err" || bad "reuse of a marked work folder, run $run: $(cat "$tmp/err")"
done
[ -f "$tmp/w/.niovcheck-work" ] || bad "the work folder has no marker"

# fuzz-campaign clears each plugin x target folder under --out before it
# runs: a folder of the user's (no marker) is refused and keeps its files.
mkdir -p "$tmp/fc/tx_autosize-bind" && echo precious >"$tmp/fc/tx_autosize-bind/notes"
"$bin" fuzz-campaign --impl "$good" --targets bind --time 1 --out "$tmp/fc" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "fuzz-campaign --out a user's folder: exit $rc, want 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "fuzz-campaign --out a user's folder: not one line: $(cat "$tmp/err")"
[ "$(cat "$tmp/fc/tx_autosize-bind/notes" 2>/dev/null)" = precious ] || bad "fuzz-campaign deleted a user's file"

[ $fail -eq 0 ] && echo "all_workdir_test: ok"
exit $fail
