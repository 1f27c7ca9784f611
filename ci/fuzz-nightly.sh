#!/usr/bin/env bash
# Nightly fuzzing of the four targets (bind send config scenario) on every
# core, then: merge coverage-adding inputs into corpora/<target>/, minimize
# each crash and save it as corpora/regressions/fuzz-<target>-<hash>.scn with
# its replay command, print a summary (text and JSON) and apply the gates:
#   fail  a target under --min-features coverage features, any crash, or a
#         canary (a broken variant plugin) not caught within 60 s;
#   warn  a target under 1,000 exec/s.
#
# usage: ci/fuzz-nightly.sh [--time SECONDS | --smoke] [--engine libfuzzer|afl]
#          [--targets "bind send ..."] [--jobs N] [--impl PATH|none]
#          [--min-features N] [--canary PATH] [--no-merge] [--no-build] [--out DIR]
# --smoke is --time 10: the pipeline end to end in about two minutes.
# Environment: NIOV_FUZZ_TIME (seconds per target), NIOV_BUILD (gcc build:
# niovcheck and plugins, default build), NIOV_FUZZ_BUILD (clang NIOV_FUZZ=ON
# build, default build-fuzz), NIOV_AFL_BUILD (default build-afl).
set -uo pipefail
cd "$(dirname "$0")/.."

secs=${NIOV_FUZZ_TIME:-3600}
engine=libfuzzer
targets="bind send config scenario"
jobs=$(nproc)
impl=default
min_features=${NIOV_FUZZ_MIN_FEATURES:-150}
min_execs=1000
canary=default
canary_secs=60
merge=1
build_first=1
out=""  # default: $fbuild/nightly (under the ignored /build*/)
build=${NIOV_BUILD:-build}
fbuild=${NIOV_FUZZ_BUILD:-build-fuzz}
abuild=${NIOV_AFL_BUILD:-build-afl}

while [ $# -gt 0 ]; do
	case $1 in
	--time) secs=$2; shift ;;
	--smoke) secs=10 ;;
	--engine) engine=$2; shift ;;
	--targets) targets=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--impl) impl=$2; shift ;;
	--min-features) min_features=$2; shift ;;
	--canary) canary=$2; shift ;;
	--no-merge) merge=0 ;;
	--no-build) build_first=0 ;;
	--out) out=$2; shift ;;
	*) echo "fuzz-nightly: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
case $engine in libfuzzer | afl) ;; *) echo "fuzz-nightly: --engine libfuzzer or afl" >&2; exit 2 ;; esac
[ -n "$out" ] || out=$fbuild/nightly
[ "$impl" = default ] && impl=$build/lib/libniov_tx_autosize.so
[ "$impl" = none ] && impl=
[ "$canary" = default ] && canary=$build/lib/libniov_tx_lookup_page.so

# shellcheck source=ci/lib.sh
. ci/lib.sh
log() { echo "fuzz-nightly: $*"; }

# --- build -----------------------------------------------------------------
if [ $build_first = 1 ]; then
	log "building ($build, $fbuild${engine/libfuzzer/}${engine/afl/, $abuild})"
	[ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$build" -j "$jobs" >/dev/null || { log "gcc build failed"; exit 1; }
	[ -f "$fbuild/build.ninja" ] || cmake -S . -B "$fbuild" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DNIOV_FUZZ=ON >/dev/null
	cmake --build "$fbuild" -j "$jobs" --target $(for t in $targets; do echo "${t}_fuzzer"; done) >/dev/null ||
		{ log "libFuzzer build failed"; exit 1; }
	if [ $engine = afl ]; then bash ci/build-afl.sh "$abuild" fast cmplog asan || exit 1; fi
fi
niovcheck=$build/bin/niovcheck
mkdir -p "$out" corpora/regressions
out=$(realpath "$out")

# Pull a number out of the last line of $2 matching $1 ("ft: 123" style).
stat_of() { grep -oE "$1:? [0-9]+" "$2" | tail -1 | grep -oE '[0-9]+$' || echo 0; }

# Coverage features of a corpus as libFuzzer counts them (cov and ft after
# replaying it once): the number the gate and the summary use, whatever the
# engine that grew the corpus.
features_of() { # target dir -> "cov ft"
	local log=$out/$1/features.log
	NIOV_IMPL=$impl "$fbuild/bin/${1}_fuzzer" -runs=0 -max_len=4096 "$2" >"$log" 2>&1
	echo "$(grep INITED "$log" | stat_of cov /dev/stdin) $(grep INITED "$log" | stat_of ft /dev/stdin)"
}

run_libfuzzer() { # target workdir -> sets execs rate
	local t=$1 w=$2 mode=()
	[ "$jobs" -gt 1 ] && mode=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
	local start=$SECONDS
	NIOV_IMPL=$impl timeout $((secs + 120)) "$fbuild/bin/${t}_fuzzer" "${mode[@]}" -max_total_time="$secs" \
		-dict="corpora/$t.dict" -max_len=4096 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/fuzz.log" 2>&1
	local elapsed=$((SECONDS - start))
	execs=$(grep -oE '^#[0-9]+' "$w/fuzz.log" | tail -1 | tr -d '#')
	execs=${execs:-0}
	rate=$(stat_of 'exec/s' "$w/fuzz.log")
	# Fork mode's status lines carry the jobs' total; fall back to execs/time.
	[ "$rate" -gt 0 ] || rate=$((execs / (elapsed > 0 ? elapsed : 1)))
}

run_afl() { # target workdir -> sets execs rate
	local t=$1 w=$2 pids=() i
	export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
		AFL_CMPLOG_ONLY_NEW=1 AFL_FAST_CAL=1 AFL_IMPORT_FIRST=1 AFL_FINAL_SYNC=1 NIOV_IMPL=$impl
	local common=(-i "corpora/$t" -o "$w/afl" -x "corpora/$t.dict" -V "$secs" -t 10000)
	afl-fuzz -M main "${common[@]}" -- "$abuild/fast/$t" >"$w/afl-main.log" 2>&1 &
	pids+=($!)
	# Secondaries: CMPLOG first, then the sanitizer instance, then plain ones
	# with other schedules, one per remaining core.
	for ((i = 1; i < jobs; i++)); do
		case $i in
		1) afl-fuzz -S cmplog -c "$abuild/cmplog/$t" -l 2AT "${common[@]}" -- "$abuild/fast/$t" ;;
		2) afl-fuzz -S asan "${common[@]}" -- "$abuild/asan/$t" ;;
		*) afl-fuzz -S "s$i" -p explore "${common[@]}" -- "$abuild/fast/$t" ;;
		esac >"$w/afl-s$i.log" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	execs=0 rate=0
	for s in "$w"/afl/*/fuzzer_stats; do
		execs=$((execs + $(awk '/^execs_done/ {print $3}' "$s")))
		rate=$((rate + $(awk '/^execs_per_sec/ {printf "%d", $3}' "$s")))
	done
	mkdir -p "$w/corpus"
	cp "$w"/afl/*/queue/id:* "$w/corpus/" 2>/dev/null
	for c in "$w"/afl/*/crashes/id:*; do [ -e "$c" ] && cp "$c" "$w/artifacts/crash-afl-$(sha1sum "$c" | cut -c1-40)"; done
}

# A crash -> minimized -> corpora/regressions/fuzz-<target>-<hash>.scn with
# the one-line failure and its replay commands.  Prints "WHAT<tab>FILE".
save_crash() { # target file
	local t=$1 c=$2 bin=$fbuild/bin/${1}_fuzzer
	local line what
	NIOV_IMPL=$impl "$bin" -minimize_crash=1 -max_total_time=30 -runs=20000 \
		-exact_artifact_path="$c.min" "$c" >/dev/null 2>&1
	local min=$c
	[ -s "$c.min" ] && min=$c.min
	# The failure of the minimized input (minimizing may land on another
	# invariant), without the harness's generic replay hint.
	line=$(NIOV_IMPL=$impl "$bin" -runs=1 "$min" 2>&1 | grep -E "$niov_finding_re"'|ERROR: |runtime error' | head -1 |
		sed 's/ | replay:.*//')
	[ -n "$line" ] || line="did not reproduce on a second run"
	what=$(echo "$line" | sed -nE 's/^niovcheck-fuzz [a-z]+: ([^ ]+) .*/\1/p')
	what=${what:-$(echo "$line" | cut -c1-60)}
	local name=fuzz-$t-$(sha1sum "$min" | cut -c1-12)
	local impl_arg=${impl:+ --impl $impl}
	local dest=corpora/regressions/$name.scn
	if "$niovcheck" corpus decode --target "$t"$impl_arg "$min" "$out/$name.scn" 2>"$out/$name.err"; then
		{
			echo "# Found by ci/fuzz-nightly.sh, fuzz target $t, $(date -u +%F)."
			echo "# $line"
			echo "# replay: $niovcheck replay $dest$impl_arg"
			echo "#     or: NIOV_IMPL=$impl $build/bin/fuzz_replay_scenario $dest"
			grep -v '^# decoded from' "$out/$name.scn"
		} >"$dest"
	else # the parser itself failed on it: keep the raw text
		dest=corpora/regressions/$name.input
		cp "$min" "$dest"
	fi
	printf '%s\t%s\n' "$what" "$dest"
}

# --- fuzz each target --------------------------------------------------------
declare -A R_EXECS R_RATE R_COV R_FT R_NEW R_CRASH R_WHAT R_STATUS
status=0
for t in $targets; do
	w=$out/$t
	rm -rf "$w" && mkdir -p "$w/corpus" "$w/artifacts"
	cp corpora/"$t"/* "$w/corpus/" 2>/dev/null
	log "$t: $engine for ${secs}s on $jobs cores${impl:+ against $(basename "$impl")}"
	run_$engine "$t" "$w"
	R_EXECS[$t]=$execs R_RATE[$t]=$rate
	before=$(ls corpora/"$t" | wc -l)
	if [ $merge = 1 ]; then
		NIOV_IMPL=$impl "$fbuild/bin/${t}_fuzzer" -merge=1 -max_len=4096 -timeout=10 \
			"corpora/$t" "$w/corpus" >"$w/merge.log" 2>&1 || log "$t: merge failed (see $w/merge.log)"
	fi
	R_NEW[$t]=$(($(ls corpora/"$t" | wc -l) - before))
	read -r R_COV[$t] R_FT[$t] < <(features_of "$t" "$w/corpus")
	crashes=0 whats=""
	declare -A seen=()
	for c in "$w"/artifacts/crash-* "$w"/artifacts/timeout-* "$w"/artifacts/oom-*; do
		[ -e "$c" ] && [[ $c != *.min ]] || continue
		crashes=$((crashes + 1))
		[ $crashes -le 10 ] || continue
		IFS=$'\t' read -r what dest < <(save_crash "$t" "$c")
		if [ -n "${seen[$what]:-}" ]; then # one file per failure kind
			[ "${seen[$what]}" = "$dest" ] || rm -f "$dest"
			continue
		fi
		seen[$what]=$dest
		whats="$whats $what"
		log "$t: crash: $what -> $dest"
	done
	unset seen
	R_CRASH[$t]=$crashes R_WHAT[$t]=${whats# }
	st=ok
	if [ "${R_FT[$t]}" -lt "$min_features" ]; then st=FAIL-features; status=1; fi
	if [ "$crashes" -gt 0 ]; then st=FAIL-crash; status=1; fi
	if [ "$st" = ok ] && [ "$rate" -lt $min_execs ]; then st=warn-slow; fi
	R_STATUS[$t]=$st
done

# --- the negative canary -------------------------------------------------------
# A broken variant plugin, an empty corpus: the send target must crash
# within $canary_secs seconds or the pipeline has gone blind.
cw=$out/canary
rm -rf "$cw" && mkdir -p "$cw/corpus"
start=$SECONDS
NIOV_IMPL=$canary timeout $((canary_secs + 30)) "$fbuild/bin/send_fuzzer" -max_total_time=$canary_secs \
	-max_len=4096 -artifact_prefix="$cw/" "$cw/corpus" >"$cw/fuzz.log" 2>&1
canary_time=$((SECONDS - start))
canary_line=$(grep -m1 -E "$niov_finding_re" "$cw/fuzz.log" | cut -d'|' -f1 | sed 's/ *$//')
if ls "$cw"/crash-* >/dev/null 2>&1 && [ -n "$canary_line" ]; then
	canary_ok=true
else
	canary_ok=false status=1
fi

# --- summary ---------------------------------------------------------------------
echo
printf '%-9s %-9s %12s %9s %6s %6s %5s %7s  %s\n' target engine execs exec/s cov ft new crashes status
for t in $targets; do
	printf '%-9s %-9s %12s %9s %6s %6s %5s %7s  %s %s\n' "$t" "$engine" "${R_EXECS[$t]}" "${R_RATE[$t]}" \
		"${R_COV[$t]}" "${R_FT[$t]}" "${R_NEW[$t]}" "${R_CRASH[$t]}" "${R_STATUS[$t]}" "${R_WHAT[$t]}"
done
echo "canary: $(basename "$canary") -> $([ $canary_ok = true ] && echo "caught in ${canary_time}s: $canary_line" || echo "NOT caught in ${canary_secs}s: FAIL")"
echo "gates: features >= $min_features (fail), exec/s >= $min_execs (warn), no crash, canary caught"

{
	printf '{"engine":"%s","seconds_per_target":%s,"jobs":%s,"impl":"%s","min_features":%s,"targets":[' \
		"$engine" "$secs" "$jobs" "$impl" "$min_features"
	sep=""
	for t in $targets; do
		printf '%s{"target":"%s","execs":%s,"exec_per_sec":%s,"cov":%s,"features":%s,"merged_inputs":%s,"crashes":%s,"failures":"%s","status":"%s"}' \
			"$sep" "$t" "${R_EXECS[$t]}" "${R_RATE[$t]}" "${R_COV[$t]}" "${R_FT[$t]}" "${R_NEW[$t]}" \
			"${R_CRASH[$t]}" "${R_WHAT[$t]}" "${R_STATUS[$t]}"
		sep=,
	done
	printf '],"canary":{"plugin":"%s","caught":%s,"seconds":%s,"failure":"%s"},"status":"%s"}\n' \
		"$canary" "$canary_ok" "$canary_time" "${canary_line//\"/\'}" "$([ $status = 0 ] && echo ok || echo fail)"
} >"$out/summary.json"
echo "json: $out/summary.json"
cat "$out/summary.json"
exit $status
