#!/usr/bin/env bash
# `niovcheck props` as CI and the main job call it: exit codes (0 pass, 1 a
# property failed, 2 bad input with one line on stderr), the failure's
# scenario file and replay command, JSON, and determinism under a seed.
# usage: props_cli_test.sh NIOVCHECK LIB_DIR
set -u
bin=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FAILURE_DIR=$tmp/failures
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

expect_exit() {
	local want=$1 what=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" -eq "$want" ] || { bad "$what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -5; return 1; }
	if [ "$want" -eq 2 ] && [ "$(grep -vc '^Using configuration' "$tmp/err")" -ne 1 ]; then
		bad "$what: bad input must give one line on stderr"; cat "$tmp/err"; return 1
	fi
	ok
}

expect_exit 2 "zero cases" "$bin" props --cases 0
expect_exit 2 "unknown property" "$bin" props --property no.such
expect_exit 2 "bad plugin" "$bin" props --impl "$tmp/nope.so" --cases 10
expect_exit 2 "bad seed" "$bin" props --seed 12Q
expect_exit 2 "stray file" "$bin" props some.scn

expect_exit 0 "one property passes" "$bin" props --cases 300 --property sizing.maximal
grep -q "sizing.maximal *300 *ok" "$tmp/out" && ok || bad "no ok row: $(cat "$tmp/out")"

# A broken plugin fails the property its catalogue names, with a file and
# a replay command that shows the failure again.
expect_exit 1 "broken plugin caught" "$bin" props --cases 2000 --property tcp.truesize_covers_bytes \
	--impl "$lib/libniov_truesize_page.so"
file=$(sed -n 's/^ *scenario: *//p' "$tmp/out")
replay=$(sed -n 's/^ *replay: *//p' "$tmp/out")
[ -f "$file" ] && ok || bad "no scenario file in: $(cat "$tmp/out")"
grep -q 'RC_PARAMS="reproduce=' "$tmp/out" && ok || bad "no reproduce string"
case $replay in *" replay $file --impl $lib/libniov_truesize_page.so --rules tx-autosize") ok ;; *) bad "replay command: $replay" ;; esac
$replay >"$tmp/replay" 2>&1
[ $? -eq 1 ] && grep -q "tcp.truesize_covers_bytes" "$tmp/replay" && ok || bad "replay does not show it"
cp "$file" "$tmp/first.scn"

# Seeded and deterministic: the same run writes the same case.
"$bin" props --cases 2000 --property tcp.truesize_covers_bytes --impl "$lib/libniov_truesize_page.so" >/dev/null 2>&1
cmp -s "$file" "$tmp/first.scn" && ok || bad "a second run shrank to another case"

expect_exit 1 "json" "$bin" props --cases 200 --property lookup.byte_map --impl "$lib/libniov_tx_lookup_page.so" --json
python3 - "$tmp/out" <<'PY' && ok || bad "json shape"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["properties"][0]
assert j["failed"] == 1 and p["name"] == "lookup.byte_map" and not p["passed"], j
assert p["scenario"].endswith(".scn") and "replay" in p["replay"] and p["reproduce"].startswith("reproduce="), p
assert p["cases"] >= 1 and p["cases_per_s"] > 0, p
PY

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
