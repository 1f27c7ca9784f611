#!/usr/bin/env bash
# The fuzz speed table: exec/s per target, one core, a fixed time,
# read from the fuzzers' own statistics (libFuzzer's
# stat::average_exec_per_sec, AFL++'s fuzzer_stats execs_per_sec), for
# libFuzzer and AFL++, with and without ASan + UBSan, each against the
# decode-only build of the same target (ratio = full / decode-only; the goal
# is >= 0.5).  Model only; the "+plugin" column is libFuzzer + ASan with the
# tx-autosize plugin.  NIOV_FUZZ_KEEP_GOING keeps open findings from ending
# a run early.
# usage: ci/fuzz-speed.sh [SECONDS] [TARGETS]   (needs the NIOV_FUZZ=ON clang
#        build in $NIOV_FUZZ_BUILD and ci/build-afl.sh's in $NIOV_AFL_BUILD)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
targets=${2:-bind send config scenario}
fbuild=${NIOV_FUZZ_BUILD:-build-fuzz}
abuild=${NIOV_AFL_BUILD:-build-afl}
plugin=${NIOV_BUILD:-build}/lib/libniov_tx_autosize.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FUZZ_KEEP_GOING=1

libfuzzer() { # binary target [env...] -> exec/s
	local bin=$1 t=$2
	shift 2
	rm -rf "$tmp/c" && cp -r "corpora/$t" "$tmp/c"
	env "$@" "$bin" -max_total_time="$secs" -max_len=4096 -print_final_stats=1 -close_fd_mask=2 \
		-dict="corpora/$t.dict" "$tmp/c" 2>&1 | awk '/average_exec_per_sec/ {print $2}'
}

afl() { # binary target -> exec/s
	local bin=$1 t=$2
	rm -rf "$tmp/o"
	AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
		AFL_FAST_CAL=1 afl-fuzz -i "corpora/$t" -o "$tmp/o" -V "$secs" -t 10000 -- "$bin" >/dev/null 2>&1
	awk '/^execs_per_sec/ {printf "%d\n", $3}' "$tmp/o/default/fuzzer_stats" 2>/dev/null || echo 0
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

printf '%-9s | %-30s | %-30s | %-30s | %-30s | %s\n' target "libFuzzer+ASan/UBSan full/dec (ratio)" \
	"libFuzzer plain full/dec (ratio)" "AFL++ +ASan/UBSan full/dec (ratio)" "AFL++ plain full/dec (ratio)" "+plugin"
json="["
for t in $targets; do
	lf=$(libfuzzer "$fbuild/bin/${t}_fuzzer" "$t") lfd=$(libfuzzer "$fbuild/bin/${t}_decode_fuzzer" "$t")
	ln=$(libfuzzer "$fbuild/bin/${t}_fuzzer_nosan" "$t") lnd=$(libfuzzer "$fbuild/bin/${t}_decode_fuzzer_nosan" "$t")
	aa=$(afl "$abuild/asan/$t" "$t") aad=$(afl "$abuild/decode-asan/$t" "$t")
	af=$(afl "$abuild/fast/$t" "$t") afd=$(afl "$abuild/decode/$t" "$t")
	lp=$(libfuzzer "$fbuild/bin/${t}_fuzzer" "$t" NIOV_IMPL="$plugin")
	printf '%-9s | %8s / %8s (%s) | %8s / %8s (%s) | %8s / %8s (%s) | %8s / %8s (%s) | %s\n' "$t" \
		"$lf" "$lfd" "$(ratio "$lf" "$lfd")" "$ln" "$lnd" "$(ratio "$ln" "$lnd")" \
		"$aa" "$aad" "$(ratio "$aa" "$aad")" "$af" "$afd" "$(ratio "$af" "$afd")" "$lp"
	json+="{\"target\":\"$t\",\"seconds\":$secs,\"libfuzzer_asan\":[$lf,$lfd],\"libfuzzer_plain\":[$ln,$lnd],"
	json+="\"afl_asan\":[$aa,$aad],\"afl_plain\":[$af,$afd],\"libfuzzer_asan_plugin\":$lp},"
done
echo "${json%,}]"
