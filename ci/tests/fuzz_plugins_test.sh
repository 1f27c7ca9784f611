#!/usr/bin/env bash
# ci/fuzz-plugins.sh judges runs, not banners: against a correct plugin it
# finds nothing (exit 0), against a broken variant it reports the finding
# (exit 1) and libFuzzer keeps the input as crash-*.  Every run with a plugin
# prints 'niovcheck-fuzz: plugin ...'; taken for a finding, it failed every
# campaign.
# usage: fuzz_plugins_test.sh FUZZ_BUILD BUILD  (where the libFuzzer targets
#        are; where the plugins and niovcheck are: absolute paths)
set -u
if [ $# -ne 2 ] || [ ! -x "$1/bin/send_fuzzer" ] || [ ! -d "$2/lib" ]; then
	echo "usage: fuzz_plugins_test.sh FUZZ_BUILD BUILD (FUZZ_BUILD/bin/send_fuzzer and BUILD/lib must exist)" >&2
	exit 2
fi
fbuild=$1 build=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
campaign() { # out plugins targets seconds
	NIOV_BUILD=$build NIOV_FUZZ_BUILD=$fbuild bash "$src/ci/fuzz-plugins.sh" --no-build --out "$tmp/$1" \
		--plugins "$2" --targets "$3" --time "$4" >"$tmp/$1.log" 2>&1
}
fail=0
campaign ok baseline "bind send" 5
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: baseline (a correct plugin): exit $rc"; tail -4 "$tmp/ok.log"; fail=1
fi
campaign broken no_length_clamp send 30
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'no_length_clamp send *FINDING' "$tmp/broken.log"; then
	echo "FAIL: no_length_clamp (a broken variant): exit $rc, no FINDING row"; tail -4 "$tmp/broken.log"; fail=1
fi
# libFuzzer saved the input: the harness's abort reached libFuzzer's handler.
if ! ls "$tmp"/broken/no_length_clamp-send/artifacts/crash-* >/dev/null 2>&1; then
	echo "FAIL: no_length_clamp: the finding left no crash-* file"; fail=1
fi
[ $fail = 0 ] && echo "fuzz_plugins_test: correct plugin clean, broken variant found"
exit $fail
