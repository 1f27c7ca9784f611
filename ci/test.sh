#!/usr/bin/env bash
# Install, build and run the tests: the README's test command and what CI runs.
# NIOV_ASAN=0 skips the sanitizer build (it doubles the build time).
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default

if [ "${NIOV_ASAN:-1}" != 0 ]; then
	# The same suite under ASan + UBSan: every finding is fatal.
	cmake --preset asan
	cmake --build --preset asan
	ctest --preset asan
fi
