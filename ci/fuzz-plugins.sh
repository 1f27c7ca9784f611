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
# This script builds and picks the plugins; `niovcheck fuzz-campaign` runs
# the campaign.
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
# The campaign itself is niovcheck's (cli/cmd_fuzz_campaign.cpp): the
# libFuzzer command lines, the replays of a lone timeout and the verdict are
# built where the fuzz engine of `niovcheck all` builds them.
impls=()
for p in $plugins; do
	impls+=(--impl "$build/lib/libniov_$p.so")
done
dry_flag=()
[ $dry = 1 ] && dry_flag=(--dry-run)
exec "$build/bin/niovcheck" fuzz-campaign --fuzz-build "$fbuild" --out "$out" --targets "$targets" --time "$secs" \
	--unit-timeout "$unit_timeout" --jobs "$jobs" --sanitize "$sanitize" "${impls[@]}" "${dry_flag[@]}"
