#!/usr/bin/env bash
# ci/fuzz-plugins.sh judges runs, not banners: against a correct plugin it
# finds nothing (exit 0), against a broken variant it reports the finding
# (exit 1) and libFuzzer keeps the input as crash-*.  Every run with a plugin
# prints 'niovcheck-fuzz: plugin ...'; taken for a finding, it failed every
# campaign.  A timeout that three replays do not repeat (a starved machine)
# fails nothing; a plugin that hangs is a finding.
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
campaign() { # out plugins targets seconds [more options]
	local out=$1 plugins=$2 targets=$3 secs=$4
	shift 4
	NIOV_BUILD=$build NIOV_FUZZ_BUILD=${fuzz_build:-$fbuild} bash "$src/ci/fuzz-plugins.sh" --no-build \
		--out "$tmp/$out" --plugins "$plugins" --targets "$targets" --time "$secs" "$@" >"$tmp/$out.log" 2>&1
}
fail=0
# Two pairs at once: both rows are there, in order, and both are clean.
# send starts 3 s late, so the campaign must wait for the pair that ends last.
mkdir -p "$tmp/late/bin"
ln -s "$fbuild/bin/bind_fuzzer" "$tmp/late/bin/bind_fuzzer"
printf '#!/bin/sh\nsleep 3\nexec "%s" "$@"\n' "$fbuild/bin/send_fuzzer" >"$tmp/late/bin/send_fuzzer"
chmod +x "$tmp/late/bin/send_fuzzer"
fuzz_build=$tmp/late campaign ok baseline "bind send" 5 --jobs 2
rc=$?
rows=$(grep -E '^baseline +(bind|send) ' "$tmp/ok.log" | awk '{print $2 "=" $3}' | tr '\n' ' ')
if [ $rc -ne 0 ] || [ "$rows" != "bind=ok send=ok " ]; then
	echo "FAIL: baseline (a correct plugin), two jobs: exit $rc, rows '$rows'"; tail -4 "$tmp/ok.log"; fail=1
fi
# Bad input: one line, exit 2, before anything runs.
for args in "--jobs 0" "--jobs x" "--jobs" "--time 0"; do
	# shellcheck disable=SC2086
	NIOV_BUILD=$build NIOV_FUZZ_BUILD=$fbuild bash "$src/ci/fuzz-plugins.sh" --no-build $args >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		echo "FAIL: fuzz-plugins $args: exit $rc, want 2 with one line"; cat "$tmp/err"; fail=1
	fi
done
campaign broken no_length_clamp send 30
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'no_length_clamp send *FINDING' "$tmp/broken.log"; then
	echo "FAIL: no_length_clamp (a broken variant): exit $rc, no FINDING row"; tail -4 "$tmp/broken.log"; fail=1
fi
# libFuzzer saved the input: the harness's abort reached libFuzzer's handler.
if ! ls "$tmp"/broken/no_length_clamp-send/artifacts/crash-* >/dev/null 2>&1; then
	echo "FAIL: no_length_clamp: the finding left no crash-* file"; fail=1
fi

# A timeout that no replay repeats is a starved machine's, not the code's.
# A stand-in target "times out" on its campaign run once (saving a seed as
# timeout-*, as libFuzzer does) and runs the real target for the replays.
mkdir -p "$tmp/stalling/bin"
seed=$(ls "$src/corpora/bind" | head -1)
cat >"$tmp/stalling/bin/bind_fuzzer" <<STUB
#!/usr/bin/env bash
if [ ! -e "$tmp/stall-marker" ]; then
	touch "$tmp/stall-marker"
	for a in "\$@"; do case \$a in -artifact_prefix=*) prefix=\${a#-artifact_prefix=} ;; esac; done
	cp "$src/corpora/bind/$seed" "\${prefix}timeout-stalled"
	echo "==1== ERROR: libFuzzer: timeout after 2 seconds"
	exit 70
fi
exec "$fbuild/bin/bind_fuzzer" "\$@"
STUB
chmod +x "$tmp/stalling/bin/bind_fuzzer"
fuzz_build=$tmp/stalling campaign stalled baseline bind 5 --unit-timeout 2
rc=$?
if [ $rc -ne 0 ] || ! grep -q 'baseline *bind *ok .*none of 3 replays repeated' "$tmp/stalled.log"; then
	echo "FAIL: a timeout no replay repeats: exit $rc"; tail -4 "$tmp/stalled.log"; fail=1
fi
# A plugin that hangs in its fill hangs in every replay too: a finding.
campaign hang mb_loop_fill send 20 --unit-timeout 2
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'mb_loop_fill *send *FINDING .*timeout' "$tmp/hang.log"; then
	echo "FAIL: a plugin that hangs: exit $rc, no FINDING row"; tail -4 "$tmp/hang.log"; fail=1
fi
[ $fail = 0 ] && echo "fuzz_plugins_test: correct plugin clean (two jobs), broken variant found, starved timeout told from a hang"
exit $fail
