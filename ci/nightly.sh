#!/usr/bin/env bash
# Nightly: the fuzz-nightly job on the cached corpus (corpora/<target>/ is the
# cache: merged inputs stay there), a coverage report over the corpora, and
# the bug scoreboard and the benchmark figures as JSON for tracking over time.
# usage: ci/nightly.sh [--dry-run] [--fuzz-seconds N]
# Budgets: --fuzz-seconds (or $NIOV_FUZZ_TIME) per target of the campaign;
# $NIOV_FUZZ_PLUGIN_TIME (120) per target and correct plugin;
# $NIOV_KERNEL_FUZZ_TIME (60) per target on each kernel tree;
# $NIOV_MUTANTS_FUZZ_TIME (60) per target and variant of the scoreboard.
set -euo pipefail
cd "$(dirname "$0")/.."

dry=0 fuzz_secs=${NIOV_FUZZ_TIME:-3600} plugin_secs=${NIOV_FUZZ_PLUGIN_TIME:-120}
kernel_secs=${NIOV_KERNEL_FUZZ_TIME:-60} mutants_secs=${NIOV_MUTANTS_FUZZ_TIME:-60}
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--fuzz-seconds) fuzz_secs=$2; shift ;;
	*) echo "nightly: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
# shellcheck source=ci/lib.sh
. ci/lib.sh

install_and_build
run bash ci/fuzz-nightly.sh --time "$fuzz_secs"
# The clang tree's own tests: fuzz replays with and without a plugin, the
# misbehaving plugins under libFuzzer, the OSS-Fuzz build script.
run cmake --preset fuzz
run cmake --build --preset fuzz
run ctest --test-dir build-fuzz -L fuzz
# The kernel-shaped plugins are correct: any finding on them is ours.
run bash ci/fuzz-plugins.sh --time "$plugin_secs" --jobs "$(nproc)"
# The real 6.12 code and the TX-era fixtures, 60 s per fuzz target.
run bash ci/kernel-nightly.sh "$kernel_secs"
run bash ci/coverage.sh
echo "+ build/bin/niovcheck mutants --json --fuzz-seconds $mutants_secs > scoreboard.json"
[ "$dry" = 1 ] || build/bin/niovcheck mutants --json --fuzz-seconds "$mutants_secs" >scoreboard.json
run python3 ci/bench --json bench.json
