#!/usr/bin/env bash
# `all --tap` is KTAP that the kernel's own parser reads: kunit.py from
# Debian's linux-source-6.12 (tools/testing/kunit, extracted from the
# tarball like the other files the kernel tests take) parses a clean and a
# broken run and counts the same passes, failures and skips as the
# verdict's JSON (its "tests").  The tarball missing is a failure: CI
# installs it (ci/install-deps.sh).
# usage: ktap_test.sh NIOVCHECK CLEAN_PLUGIN BROKEN_PLUGIN
set -u
bin=$1 clean=$2 broken=$3
tarball=/usr/src/linux-source-6.12.tar.xz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -r "$tarball" ] || { echo "FAIL: $tarball missing (apt-get install linux-source-6.12)"; exit 1; }
tar -xJf "$tarball" -C "$tmp" --wildcards 'linux-source-6.12/tools/testing/kunit/*.py' || exit 1
kunit=$tmp/linux-source-6.12/tools/testing/kunit/kunit.py
args=(--engines replay,props,proof,faults --cases 50)

for run in clean broken; do
	plugin=$clean
	[ $run = broken ] && plugin=$broken
	"$bin" all --impl "$plugin" "${args[@]}" --tap --work-dir "$tmp/w-$run-tap" >"$tmp/$run.tap" 2>/dev/null
	tap_rc=$?
	"$bin" all --impl "$plugin" "${args[@]}" --json --work-dir "$tmp/w-$run-json" >"$tmp/$run.json" 2>/dev/null
	head -1 "$tmp/$run.tap" | grep -qx 'KTAP version 1' || bad "$run: not KTAP: $(head -1 "$tmp/$run.tap")"
	parsed=$(python3 "$kunit" parse "$tmp/$run.tap" 2>&1 | sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests*: *//p')
	[ -n "$parsed" ] || { bad "$run: kunit.py parse found no summary"; continue; }
	want=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
parts = [f"passed: {t[k]}" if k == "passed" else f"{k}: {t[k]}" for k in ("passed", "failed", "skipped") if t[k]]
print(", ".join(parts))' "$tmp/$run.json")
	[ "$parsed" = "$want" ] || bad "$run: kunit.py counts '$parsed', the verdict '$want'"
	case $run in
	clean) [ $tap_rc = 0 ] && [[ "$want" != *failed* ]] || bad "clean: exit $tap_rc, $want" ;;
	broken) [ $tap_rc = 1 ] && [[ "$want" == *failed* ]] || bad "broken: exit $tap_rc, $want"
		grep -q '^# finding 1: ' "$tmp/$run.tap" || bad "broken: no finding as a diagnostic line" ;;
	esac
done
[ $fail = 0 ] && echo "ktap_test: kunit.py parses what the verdicts count"
exit $fail
