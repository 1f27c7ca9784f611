#!/usr/bin/env bash
# The quick set-up for checking a kernel tree or a patch series: install the
# Debian packages, then build only what `niovcheck kernel check` and
# `kernel series` run -- the niovcheck binary (gcc) and the four libFuzzer
# targets its fuzz engine drives (clang-14) -- not the tests, benchmarks,
# plugins or AFL++ builds of the full job (ci/main-job.sh, ci/test.sh).
# Idempotent: a second run only rebuilds what changed.
# usage: ci/setup.sh [--no-fuzz]   (--no-fuzz: the fuzz engine will say "not run")
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz=1
case "${1:-}" in
"") ;;
--no-fuzz) fuzz=0 ;;
*)
	echo "setup: unknown option '$1' (want --no-fuzz)" >&2
	exit 2
	;;
esac

bash ci/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target niovcheck
if [ "$fuzz" = 1 ]; then
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz --target send_fuzzer bind_fuzzer config_fuzzer scenario_fuzzer
fi
echo
echo "setup: ready.  Check a tree:   build/bin/niovcheck kernel check ~/linux"
echo "               or a series:    build/bin/niovcheck kernel series ~/linux --mbox series.mbx"
