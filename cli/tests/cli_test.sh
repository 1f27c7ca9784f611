#!/usr/bin/env bash
# The front door as a user meets it: exit codes (0 clean, 1 violation or
# difference, 2 bad input with a one-line error), JSON shape, explain text,
# the simulate tables and plugins on the command line.
# usage: cli_test.sh NIOVCHECK CORPUS_DIR LIB_DIR
set -u
bin=$1 corpus=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect_exit CODE DESCRIPTION -- COMMAND...
expect_exit() {
	local want=$1 what=$2
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -5
		fail=$((fail + 1)); return 1
	fi
	if [ "$want" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		echo "FAIL: $what: bad input must give exactly one line on stderr"; cat "$tmp/err"
		fail=$((fail + 1)); return 1
	fi
	pass=$((pass + 1))
}

expect_grep() {
	local what=$1 pattern=$2
	if grep -q -- "$pattern" "$tmp/out"; then pass=$((pass + 1)); else
		echo "FAIL: $what: output lacks '$pattern'"; head -20 "$tmp/out"; fail=$((fail + 1)); fi
}

printf 'rules tx-autosize\nsg 0x40000000 2M\nbogus 1\n' >"$tmp/bad.scn"
printf 'rules tx-autosize\nsg 0x40000000 2M\nsend 0+64K\nfree\n' >"$tmp/good.scn"
head -c 3000 /dev/urandom >"$tmp/random.scn"

expect_exit 2 "no command" -- "$bin"
expect_exit 2 "unknown command" -- "$bin" frobnicate
expect_exit 2 "missing file" -- "$bin" replay "$tmp/nope.scn"
expect_exit 2 "syntax error" -- "$bin" replay "$tmp/bad.scn"
grep -q "bad.scn:3:" "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL: error lacks file:line"; fail=$((fail + 1)); }
expect_exit 2 "random bytes" -- "$bin" replay "$tmp/random.scn"
expect_exit 2 "a directory as scenario" -- "$bin" replay "$tmp"
expect_exit 2 "bad plugin path" -- "$bin" replay "$tmp/good.scn" --impl "$tmp/nope.so"
expect_exit 2 "not a plugin" -- "$bin" replay "$tmp/good.scn" --impl "$tmp/good.scn"
expect_exit 2 "unknown option" -- "$bin" replay "$tmp/good.scn" --frob
expect_exit 2 "two files" -- "$bin" replay "$tmp/good.scn" "$tmp/good.scn"
expect_exit 2 "bad simulate page shift" -- "$bin" simulate --page-shift 13
expect_exit 2 "bad simulate niov size" -- "$bin" simulate --niov-size 3000
expect_exit 2 "bad number" -- "$bin" simulate --size-goal 12Q
expect_exit 2 "props: malformed RC_PARAMS" -- env RC_PARAMS=max_success=abc "$bin" props --property frag.progress
expect_exit 2 "props: no such property" -- "$bin" props --property nope
expect_exit 2 "props: zero cases" -- "$bin" props --cases 0

expect_exit 0 "clean replay" -- "$bin" replay "$tmp/good.scn"
expect_grep "replay text" "verdict: clean"
expect_exit 0 "replay --json" -- "$bin" replay "$tmp/good.scn" --json
python3 - "$tmp/out" <<'PY' && pass=$((pass + 1)) || fail=$((fail + 1))
import json, sys
j = json.load(open(sys.argv[1]))
assert j["bind"]["err"] == 0 and j["bind"]["niov_shift"] == 21 and j["bind"]["num_niovs"] == 1, j["bind"]
f = j["sends"][0]["skbs"][0]["frags"][0]
assert {"niov", "off", "len", "truesize"} <= set(f), f
assert j["sends"][0]["err"] == 0 and j["violations"] == [] and j["differences"] == []
PY
expect_exit 0 "unsound scenario: the violations it expects (replay agrees with check)" -- "$bin" replay "$corpus/unsound_truesize_page.scn" --json
python3 - "$tmp/out" <<'PY' && pass=$((pass + 1)) || fail=$((fail + 1))
import json, sys
j = json.load(open(sys.argv[1]))
ids = {v["invariant"] for v in j["violations"]}
assert "tcp.truesize_covers_bytes" in ids and all("step" in v and "detail" in v for v in j["violations"]), ids
PY
expect_exit 0 "explain" -- "$bin" explain "$corpus/tx_size_limits_niov.scn"
expect_grep "explain names the limit" "dmabuf size"
expect_grep "explain names frag cuts" "cut by"
expect_exit 0 "check corpus" -- "$bin" check "$corpus"
expect_grep "verdict table" "as expected, 0 unexpected"

expect_exit 0 "kernel plugin agrees" -- "$bin" replay "$corpus/tx_selftest_3m.scn" --impl "$lib/libniov_tx_autosize.so"
expect_exit 1 "broken lookup caught" -- "$bin" replay "$corpus/tx_selftest_3m.scn" --impl "$lib/libniov_tx_lookup_page.so"
expect_grep "broken lookup names invariant" "lookup.byte_map"
expect_exit 1 "broken clamp caught" -- "$bin" replay "$corpus/tx_bnxt_64k_pages_autosize.scn" --impl "$lib/libniov_no_max_frag.so"
expect_grep "broken clamp names invariant" "dev.desc_len_exact"

expect_exit 0 "simulate prints the seeds table (a table, not a verdict)" -- "$bin" simulate
expect_exit 1 "simulate --judge: the 64K bnxt row truncates" -- "$bin" simulate --judge
expect_grep "4K niovs: 16-17 frags" "4K    4K    none   net-next     65160 .* 16-17"
expect_grep "2M niovs: 1-2 frags" "4K    2M    none   tx-autosize  65160 .* 1-2 "
expect_grep "bnxt: 2-3 frags, max 32K" "bnxt   tx-autosize  65160 .* 2-3 .* 32768"
expect_grep "BIG TCP 4K cap ~68KB" "522728 .* 17-17 .*-69632"
expect_exit 0 "simulate one case to svg" -- "$bin" simulate --niov-size 2M --device bnxt --svg "$tmp/s.svg"
grep -q "<svg" "$tmp/s.svg" && pass=$((pass + 1)) || { echo "FAIL: no svg"; fail=$((fail + 1)); }

# A replay command keeps each path one word whatever its folder holds: run
# through sh it finds the same thing again (a space, a quote and a ';'
# split it, or left the quote open, before paths were quoted).
odd="$tmp/q d'ir"
mkdir -p "$odd" && cp "$corpus/tx_selftest_3m.scn" "$odd/s;1.scn"
expect_exit 1 "a plugin finding in an odd folder" -- "$bin" check "$odd/s;1.scn" --impl "$lib/libniov_mb_stdout_fill.so"
replay=$(sed -n 's/^ *replay: //p' "$tmp/out" | head -1)
expect_exit 1 "its replay command, run by sh" -- sh -c "$replay"
expect_grep "the replay finds it again" "FINDING plugin.stdout"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
