#!/usr/bin/env bash
# No engine ever calls a misbehaving plugin clean.  Every plugin
# of plugins/misbehave/ (exit, _exit, abort, SIGSEGV in each operation, an
# endless loop, a leak on every bind, stdout output, frags written past the
# array, a NULL binding) must give a finding naming what happened, exit 1
# (the scoreboard: caught by it, exit 0, or a fault, exit 1 -- a variant
# without must_catch is caught by any finding); a wrong ABI version or a
# missing niov_impl_get must give exit 2 and one line on stderr.  Prints the matrix and its counts (plugins x engines x
# outcome); fails on any CLEAN, any crash of the engine, any wrong exit.
#
# usage: misbehave_test.sh ENGINE NIOVCHECK MISBEHAVE_LIST SOURCE_DIR [FUZZ_BIN_DIR]
#   ENGINE: check replay explain props mutants-replay mutants-props fuzz-replay fuzz
#   (fuzz-replay: the plain replay drivers next to NIOVCHECK; fuzz: the
#   libFuzzer targets in FUZZ_BIN_DIR, skipped with exit 77 when not built)
set -u
engine=$1 bin=$2 list=$3 src=$4 fuzz_bin=${5:-}
bindir=$(dirname "$bin")
scenarios=$src/corpora/scenarios
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FAILURE_DIR=$tmp/failures
# A plugin call returns in microseconds; the loop plugins must not cost more.
export NIOV_OP_TIMEOUT=${NIOV_OP_TIMEOUT:-0.2}

# check: a folder with one scenario per path (TX with a device, RX, zcrx),
# which between them reach every operation.
mkdir -p "$tmp/scenarios"
for f in tx_selftest_3m rx_tx_autosize_32k zcrx_tx_autosize_16k tx_bnxt_4k_pages; do
	cp "$scenarios/$f.scn" "$tmp/scenarios/"
done

if [ "$engine" = fuzz ] && [ ! -x "$fuzz_bin/send_fuzzer" ]; then
	echo "misbehave_test fuzz: no libFuzzer build in '$fuzz_bin' (skipped)"
	exit 77
fi

# What a plugin's misbehaviour must be reported as (an id, or the words).
expected() {
	case $1 in
	mb_exit_* | mb_uexit_*) echo 'plugin\.exit' ;;
	mb_abort_* | mb_segv_*) echo 'plugin\.signal|deadly signal|AddressSanitizer: SEGV' ;;
	mb_loop_*) echo 'plugin\.hang|timeout' ;;
	mb_stdout_*) echo 'plugin\.stdout' ;;
	mb_leak_*) echo 'plugin\.leak|LeakSanitizer' ;;
	mb_frags_past_*) echo 'abi\.frags_outside|AddressSanitizer' ;;
	mb_null_binding_*) echo 'abi\.null_binding|NULL binding' ;;
	*) echo '' ;;  # bad ABI, no symbol: refused
	esac
}

# A scenario that reaches the plugin's operation, for the one-file engines.
scenario_for() {
	case $1 in
	*_pp_init) echo "$scenarios/rx_tx_autosize_32k.scn" ;;
	*_zcrx) echo "$scenarios/zcrx_tx_autosize_16k.scn" ;;
	*_tx_desc) echo "$scenarios/tx_bnxt_4k_pages.scn" ;;
	*) echo "$scenarios/tx_selftest_3m.scn" ;;
	esac
}

# Run the engine on one plugin; stdout+stderr in $tmp/out, exit code echoed.
run_engine() {
	local name=$1 so=$2 rc
	case $engine in
	check) "$bin" check "$tmp/scenarios" --impl "$so" ;;
	replay) "$bin" replay "$(scenario_for "$name")" --impl "$so" ;;
	explain) "$bin" explain "$(scenario_for "$name")" --impl "$so" ;;
	props) "$bin" props --impl "$so" --cases 5 ;;
	mutants-replay | mutants-props)
		printf 'broken %s %s\n' "$name" "$so" >"$tmp/one.txt"
		"$bin" mutants --plugins "$tmp/one.txt" --engines "${engine#mutants-}" --cases 20 --source-dir "$src" ;;
	fuzz-replay | fuzz)
		# A finding in any target is the engine's finding; a refused plugin
		# is refused by the first.
		local t rc_all=0
		for t in send bind config scenario; do
			local dirs=("$src/corpora/$t")
			if [ "$engine" = fuzz ]; then
				# New inputs go to the first folder: an empty one of the
				# test's, or every run would grow the source tree's corpus
				# and the next run would fuzz from other inputs.
				rm -rf "$tmp/new" && mkdir -p "$tmp/new"
				NIOV_IMPL=$so timeout 60 "$fuzz_bin/${t}_fuzzer" -runs=300 -timeout=2 -seed=1 \
					-max_len=4096 -artifact_prefix="$tmp/" "$tmp/new" "${dirs[@]}" >>"$tmp/fuzz.log" 2>&1
			else
				NIOV_IMPL=$so timeout 10 "$bindir/fuzz_replay_$t" "${dirs[@]}" >>"$tmp/fuzz.log" 2>&1
			fi
			rc=$?
			if [ $rc -ne 0 ]; then rc_all=$rc; break; fi
		done
		cat "$tmp/fuzz.log"
		rm -f "$tmp/fuzz.log"
		return $rc_all ;;
	*) echo "misbehave_test: unknown engine '$engine'" >&2; exit 2 ;;
	esac
}

declare -A count
failures=0
printf '%-24s %-10s %s\n' plugin "$engine" outcome
while read -r kind target so; do
	[ "$kind" = misbehave ] || continue
	name=${target#niov_}
	want=$(expected "$name")
	run_engine "$name" "$so" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/err" >>"$tmp/out"
	fuzzing=0
	case $engine in fuzz*) fuzzing=1 ;; esac
	if [ -z "$want" ]; then
		# Refused: exit 2, one line on stderr naming the plugin.
		# (the fuzz engines' output is all in $tmp/out)
		if [ $rc -eq 2 ] && { [ $fuzzing = 1 ] || [ "$(wc -l <"$tmp/err")" -eq 1 ]; } &&
			grep -q "$(basename "$so")" "$tmp/out"; then
			outcome=refused
		else
			outcome="WRONG(exit $rc, want 2 with one line)"
		fi
	elif [ $rc -eq 0 ] && [ "${engine#mutants-}" = "$engine" ]; then
		outcome=CLEAN
	elif [ $fuzzing = 0 ] && [ $rc -ne 1 ] && [ "${engine#mutants-}" = "$engine" ]; then
		outcome="WRONG(exit $rc, want 1)"
	elif [ $rc -gt 1 ] && [ "${engine#mutants-}" != "$engine" ]; then
		outcome="WRONG(exit $rc, want 0 or 1)"
	elif grep -Eq "$want" "$tmp/out"; then
		outcome=finding
	else
		outcome="WRONG(exit $rc, no '$want')"
	fi
	case $outcome in
	finding | refused) ;;
	*)
		failures=$((failures + 1))
		sed 's/^/  | /' "$tmp/out" | head -8
		;;
	esac
	key=${outcome%%"("*}
	count[$key]=$((${count[$key]:-0} + 1))
	printf '%-24s %-10s %s\n' "$name" "$engine" "$outcome"
done <"$list"

summary=""
for k in "${!count[@]}"; do summary="$summary $k=${count[$k]}"; done
echo "misbehave_test $engine:$summary"
exit $((failures > 0))
