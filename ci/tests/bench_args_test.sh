#!/usr/bin/env bash
# ci/bench on bad arguments: one 'bench: ...' line on stderr and exit 2,
# before it builds or runs anything.  --fuzz-seconds 0 once became
# libFuzzer's -max_total_time=0 (no limit) and the bench hung.  The last
# case is the control: the same checks let a good command through.
# usage: bench_args_test.sh
set -u
bench="$(cd "$(dirname "$0")/.." && pwd)/bench"
fail=0
expect_error() { # want-substring args...
	local want=$1 err rc
	shift
	err=$(timeout 30 python3 "$bench" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ $err != bench:*"$want"* ]]; then
		echo "FAIL: ci/bench $*: exit $rc, stderr '$err' (want exit 2 and one 'bench: ...$want...' line)"
		fail=1
	fi
}
expect_error "--fuzz-seconds 0" --fuzz-seconds 0 --sections fuzz
expect_error "--fuzz-seconds -1" --fuzz-seconds -1
expect_error "--fuzz-seeds 0" --fuzz-seeds 0
expect_error "invalid int value: 'x'" --fuzz-seconds x
expect_error "unknown section 'fuz'" --sections fuz
expect_error "unrecognized arguments: --bogus" --bogus
if ! out=$(timeout 60 python3 "$bench" --dry-run --sections fuzz --fuzz-seconds 1 --fuzz-seeds 2 --json /dev/null 2>&1); then
	echo "FAIL: ci/bench --dry-run with good arguments failed: $out"
	fail=1
fi
[ $fail -eq 0 ] && echo "bench arguments: 7 cases ok"
exit $fail
