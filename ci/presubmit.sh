#!/usr/bin/env bash
# Pre-submit (every PR): build, ctest -L presubmit with JUnit XML, the same
# under ASan + UBSan, then 60 s per fuzz target.  Runs locally as it runs in CI.
# usage: ci/presubmit.sh [--dry-run] [--fuzz-seconds N]
set -euo pipefail
cd "$(dirname "$0")/.."

dry=0 fuzz_secs=60
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--fuzz-seconds) fuzz_secs=$2; shift ;;
	*) echo "presubmit: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
# shellcheck source=ci/lib.sh
. ci/lib.sh

install_and_build
run ctest --preset default -L presubmit --output-junit junit-presubmit.xml
run cmake --preset asan
run cmake --build --preset asan
run ctest --preset asan -L presubmit --output-junit junit-presubmit-asan.xml
run bash ci/fuzz-nightly.sh --time "$fuzz_secs" --no-merge --out fuzz-presubmit
