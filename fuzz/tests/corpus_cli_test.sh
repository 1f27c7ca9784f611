#!/usr/bin/env bash
# niovcheck corpus encode|decode as a user meets it: a scenario survives
# encode + decode, bad input exits 2 with one line on stderr, --impl pins
# the decoded scenario to the plugin's rules.
# usage: corpus_cli_test.sh NIOVCHECK CORPORA_DIR PLUGIN
set -u
bin=$1 corpora=$2 plugin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# expect_bad DESCRIPTION -- COMMAND...: exit 2 and exactly one stderr line.
expect_bad() {
	local what=$1
	shift 2
	"$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	[ $rc -eq 2 ] || bad "$what: exit $rc, want 2"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$what: want one line on stderr, got: $(cat "$tmp/err")"
}

scn=$corpora/scenarios/tx_hugetlb_2m.scn
"$bin" corpus encode "$scn" "$tmp/a.bin" || bad "encode send"
"$bin" corpus decode "$tmp/a.bin" "$tmp/a.scn" || bad "decode send"
"$bin" replay "$tmp/a.scn" >"$tmp/r1" 2>&1
"$bin" replay "$scn" >"$tmp/r2" 2>&1
# Same output up to the file name and line numbers.
norm() { grep -v '^scenario' "$1" | sed -E 's/\(line [0-9]+\)//'; }
diff <(norm "$tmp/r1") <(norm "$tmp/r2") >/dev/null ||
	bad "the decoded scenario replays differently from the original"

"$bin" corpus encode --target config "$corpora/scenarios/zcrx_bnxt_32k.scn" "$tmp/z.bin" || bad "encode config"
"$bin" corpus decode --target config "$tmp/z.bin" "$tmp/z.scn" && grep -q '^dir zcrx' "$tmp/z.scn" ||
	bad "config decode lost dir zcrx"

# Any bytes decode.
head -c 200 /dev/urandom >"$tmp/rand.bin"
for t in bind send config; do
	"$bin" corpus decode --target $t "$tmp/rand.bin" "$tmp/rand.scn" && "$bin" check "$tmp/rand.scn" >/dev/null 2>&1
	[ $? -le 1 ] || bad "random bytes (target $t) did not give a scenario niovcheck accepts"
done

# --impl pins the rules: a baseline scenario decoded for tx-autosize.
"$bin" corpus encode "$corpora/scenarios/tx_baseline_unaligned_addr.scn" "$tmp/b.bin"
"$bin" corpus decode --impl "$plugin" "$tmp/b.bin" "$tmp/b.scn" && grep -q '^rules tx-autosize' "$tmp/b.scn" ||
	bad "--impl did not pin the rules to the plugin's"

expect_bad "zcrx scenario for the send target" -- "$bin" corpus encode --target send "$corpora/scenarios/zcrx_bnxt_32k.scn" "$tmp/x"
expect_bad "unknown target" -- "$bin" corpus encode --target nope "$scn" "$tmp/x"
expect_bad "missing file" -- "$bin" corpus decode "$tmp/missing" "$tmp/x"
expect_bad "unparsable scenario" -- "$bin" corpus encode "$tmp/rand.bin" "$tmp/x"
expect_bad "no subcommand" -- "$bin" corpus
expect_bad "bad text for the scenario target" -- "$bin" corpus decode --target scenario "$tmp/rand.bin" "$tmp/x"
expect_bad "--impl on encode" -- "$bin" corpus encode --impl "$plugin" "$scn" "$tmp/x"

[ $fail = 0 ] && echo "corpus CLI: ok"
exit $fail
