#!/usr/bin/env bash
# Declaring a rule change (model/RULES.md), end to end on the shipped
# example: plugins/examples/tx_cap_1m.c caps TX niovs at 1 MiB.  Judged by
# the tx-autosize rules it fails every engine (check, props, the fuzz
# harness, all); with --policy tx_niov_max=1M (NIOV_POLICY for the fuzz
# targets) it passes them, and the proofs hold under the new rules.
# usage: rule_change_test.sh NIOVCHECK SOURCE_DIR LIB_DIR BIN_DIR
set -u
bin=$1 src=$2 lib=$3 bindir=$4
plugin=$lib/libniov_tx_cap_1m.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FAILURE_DIR=$tmp/failures
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# expect CODE WHAT -- COMMAND...
expect() {
	local want=$1 what=$2
	shift 3
	"$@" >"$tmp/out" 2>&1
	local got=$?
	[ "$got" -eq "$want" ] || { bad "$what: exit $got, want $want"; tail -8 "$tmp/out"; }
}
scenarios=$src/corpora/scenarios
cap=--policy\ tx_niov_max=1M

# Undeclared: the suite notices the rule change everywhere.
expect 1 "check under tx-autosize" -- "$bin" check "$scenarios" --impl "$plugin"
grep -q "bind.niov_shift\|model/plugin differences" "$tmp/out" || bad "check names no difference"
expect 1 "props under tx-autosize" -- "$bin" props --impl "$plugin" --cases 300
for t in send bind; do
	NIOV_IMPL=$plugin "$bindir/fuzz_replay_$t" "$src/corpora/$t" >"$tmp/fz" 2>&1 && bad "fuzz $t under tx-autosize passes"
	# sizing.maximal on the plugin's side, or the differential.
	grep -qE "niovcheck-fuzz $t: (sizing.maximal|differential)" "$tmp/fz" || { bad "fuzz $t: no failure line"; tail -3 "$tmp/fz"; }
done
expect 1 "all under tx-autosize" -- "$bin" all --impl "$plugin" --engines replay,props --cases 300 --work-dir "$tmp/a1"
grep -q "difference bind at bind" "$tmp/out" || { bad "all: the finding is not the niov size"; tail -20 "$tmp/out"; }

# Declared: every engine passes.
# shellcheck disable=SC2086
expect 0 "check --policy" -- "$bin" check "$scenarios" --impl "$plugin" $cap
grep -q "rules tx-autosize + tx_niov_max=1M" "$tmp/out" || bad "check header lacks the policy"
grep -q " 2 run, 2 as expected" "$tmp/out" || bad "check --policy runs the 1 MiB scenarios: $(tail -1 "$tmp/out")"
# shellcheck disable=SC2086
expect 0 "props --policy" -- "$bin" props --impl "$plugin" --cases 300 $cap
for t in send bind config scenario; do
	NIOV_IMPL=$plugin NIOV_POLICY=tx_niov_max=1M "$bindir/fuzz_replay_$t" "$src/corpora/$t" >"$tmp/fz" 2>&1 ||
		{ bad "fuzz $t with NIOV_POLICY"; tail -3 "$tmp/fz"; }
done
# shellcheck disable=SC2086
expect 0 "prove --policy" -- "$bin" prove $cap --report "$tmp/prove.json" --cex-dir "$tmp/cex"
grep -q "tx-autosize+tx_niov_max=1M" "$tmp/out" || bad "prove does not name the rules"
# shellcheck disable=SC2086
expect 0 "all --policy" -- "$bin" all --impl "$plugin" $cap --engines replay,props --cases 300 --work-dir "$tmp/a2"
# The new rule bounds the size: a 2 MiB-aligned bind gets 1 MiB niovs, and
# the proofs would refute a cap the sizing rules ignored.
"$bin" replay "$scenarios/tx_hugetlb_2m.scn" $cap --json >"$tmp/j" 2>&1
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['bind']['niov_shift']==20, j['bind']" "$tmp/j" ||
	bad "the model does not cap at 1 MiB"

[ $fail -eq 0 ] && echo "rule_change_test: ok"
exit $fail
