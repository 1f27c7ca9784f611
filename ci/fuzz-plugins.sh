#!/usr/bin/env bash
# Every fuzz target against every kernel-shaped plugin (plugins/kernel/) for a
# fixed budget.  The plugins are correct re-typings of
# their rules, so any finding (an invariant, a model-vs-plugin difference, a
# crash, a timeout, an OOM) is a bug of the suite: the run fails,
# and each finding is kept as a scenario with its replay command.
#
# A timeout that none of three replays of its input repeats is the machine's
# (a nice'd campaign starved by a build), not the code's: its row says so
# and it fails nothing.  One that repeats is a finding like any other.
#
# usage: ci/fuzz-plugins.sh [--time SECONDS] [--targets "bind send config scenario"]
#          [--plugins "STEM ..."] [--sanitize asan|plain] [--unit-timeout SECONDS]
#          [--jobs N] [--out DIR] [--no-build] [--dry-run]
# Defaults: 120 s per target and plugin, one pair at a time (--jobs N runs N
# at once: the 12 pairs of the 1 h campaign are 12 CPU-hours), the correct
# plugins the build lists ($NIOV_BUILD/lib/niov_correct_plugins.txt), ASan +
# UBSan builds, out $NIOV_FUZZ_BUILD/fuzz-plugins.  The long campaign is the
# same script with --time 3600 (nice -n 19 on a shared machine).
set -uo pipefail
cd "$(dirname "$0")/.."

secs=120 targets="bind send config scenario" plugins="" unit_timeout=10
sanitize=asan out="" build_first=1 dry=0 jobs=1
build=${NIOV_BUILD:-build}
fbuild=${NIOV_FUZZ_BUILD:-build-fuzz}
while [ $# -gt 0 ]; do
	case $1 in
	--time | --targets | --plugins | --sanitize | --unit-timeout | --jobs | --out)
		[ $# -ge 2 ] || { echo "fuzz-plugins: $1 needs a value" >&2; exit 2; } ;;
	esac
	case $1 in
	--time) secs=$2; shift ;;
	--targets) targets=$2; shift ;;
	--plugins) plugins=$2; shift ;;
	--sanitize) sanitize=$2; shift ;;
	--unit-timeout) unit_timeout=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--out) out=$2; shift ;;
	--no-build) build_first=0 ;;
	--dry-run) dry=1 ;;
	*) echo "fuzz-plugins: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
# 0 means no limit to libFuzzer: a campaign that never ends, or never times out.
for n in "$secs" "$unit_timeout"; do
	case $n in '' | *[!0-9]* | 0) echo "fuzz-plugins: --time and --unit-timeout take whole seconds >= 1, not '$n'" >&2; exit 2 ;; esac
done
case $jobs in '' | *[!0-9]* | 0) echo "fuzz-plugins: --jobs takes a whole number >= 1, not '$jobs'" >&2; exit 2 ;; esac
case $sanitize in asan) suffix= ;; plain) suffix=_nosan ;; *) echo "fuzz-plugins: --sanitize asan or plain" >&2; exit 2 ;; esac
[ -n "$out" ] || out=$fbuild/fuzz-plugins
# shellcheck source=ci/lib.sh
. ci/lib.sh

if [ $build_first = 1 ]; then
	run cmake --preset default
	run cmake --build --preset default
	run cmake --preset fuzz
	run cmake --build --preset fuzz --target $(for t in $targets; do echo "${t}_fuzzer$suffix"; done)
fi
if [ -z "$plugins" ]; then
	list=$build/lib/niov_correct_plugins.txt
	[ -r "$list" ] || { echo "fuzz-plugins: $list missing: build $build first, or name --plugins" >&2; exit 2; }
	plugins=$(tr '\n' ' ' <"$list")
fi
run mkdir -p "$out"

# Does the input of a timeout-* artifact time out again?  Three replays,
# each allowed the campaign's unit timeout.
timeout_repeats() { # plugin fuzzer artifact
	local i
	for i in 1 2 3; do
		NIOV_IMPL=$1 timeout $((unit_timeout + 60)) "$2" -timeout="$unit_timeout" -runs=1 "$3" \
			>"$3.replay-$i.log" 2>&1 || return 0
	done
	return 1
}

# One target against one plugin.  Its summary row goes to $w/row, which the
# parent reads back in order: with --jobs the pairs end in any order.
run_pair() { # plugin target
	local p=$1 t=$2
	local lib=$build/lib/libniov_$p.so w=$out/$p-$t
	run rm -rf "$w"
	run mkdir -p "$w/corpus" "$w/artifacts"
	run cp -r "corpora/$t/." "$w/corpus/"
	echo "+ NIOV_IMPL=$lib $fbuild/bin/${t}_fuzzer$suffix -max_total_time=$secs ... > $w/fuzz.log"
	[ $dry = 1 ] && return 0
	NIOV_IMPL=$lib timeout $((secs + 300)) "$fbuild/bin/${t}_fuzzer$suffix" -max_total_time="$secs" \
		-dict="corpora/$t.dict" -max_len=4096 -timeout="$unit_timeout" -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/fuzz.log" 2>&1
	local rc=$?
	local rate execs finding verdict artifacts note
	rate=$(grep -oE '^stat::average_exec_per_sec: *[0-9]+' "$w/fuzz.log" | grep -oE '[0-9]+$' || echo 0)
	execs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$w/fuzz.log" | grep -oE '[0-9]+$' || echo 0)
	finding=$(grep -m1 -E "$niov_finding_re"'|ERROR: (AddressSanitizer|libFuzzer)|runtime error|SUMMARY' \
		"$w/fuzz.log" | cut -c1-300)
	verdict=ok
	# slow-unit-* files are not findings; every other artifact is.
	artifacts=$(ls "$w"/artifacts/ | grep -Ev '^slow-unit-')
	note=""
	# A timeout alone (libFuzzer stops at its first finding).
	if [[ $artifacts == timeout-* && $artifacts != *$'\n'* ]] &&
		! timeout_repeats "$lib" "$fbuild/bin/${t}_fuzzer$suffix" "$w/artifacts/$artifacts"; then
		rc=0 finding="" artifacts=""
		note="ok: a timeout none of 3 replays repeated (the machine, not the code): $w/artifacts"
	fi
	if [ $rc -ne 0 ] || [ -n "$finding" ] || [ -n "$artifacts" ]; then
		verdict=FINDING
		[ -n "$finding" ] || finding="exit $rc (see $w/fuzz.log)"
		for a in "$w"/artifacts/crash-* "$w"/artifacts/timeout-* "$w"/artifacts/oom-*; do
			[ -e "$a" ] || continue
			"$build/bin/niovcheck" corpus decode --target "$t" --impl "$lib" "$a" "$a.scn" 2>/dev/null &&
				finding="$finding | replay: $build/bin/niovcheck replay $a.scn --impl $lib"
			break
		done
	fi
	finding=${finding:-$note}
	printf '%-12s %-9s %-8s %10s %8s  %s\n' "$p" "$t" "$verdict" "$execs" "$rate" "$finding" >"$w/row"
	echo "fuzz-plugins: $p $t: $verdict, $execs execs, $rate exec/s${finding:+: $finding}"
}

pairs=()
for p in $plugins; do
	for t in $targets; do
		pairs+=("$p $t")
	done
done
running=0
for pair in "${pairs[@]}"; do
	read -r p t <<<"$pair"
	run_pair "$p" "$t" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
[ $dry = 1 ] && exit 0
echo
printf '%-12s %-9s %-8s %10s %8s  %s\n' plugin target verdict execs exec/s finding
status=0
for pair in "${pairs[@]}"; do
	read -r p t <<<"$pair"
	row=$out/$p-$t/row
	# A pair that left no row did not finish: that fails the campaign too.
	if [ ! -s "$row" ]; then
		printf '%-12s %-9s %-8s  %s\n' "$p" "$t" "NO-RESULT" "the run left no result (see $out/$p-$t)"
		status=1
		continue
	fi
	cat "$row"
	grep -q '^[^ ]* *[^ ]* *FINDING ' "$row" && status=1
done
echo "fuzz-plugins: $([ $status = 0 ] && echo "no finding" || echo "FINDINGS: each one is a bug of the suite")" \
	"(${secs}s per target and plugin, $sanitize)"
exit $status
