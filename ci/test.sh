#!/usr/bin/env bash
# Install, build and run the tests: the README's test command and what CI runs.
# NIOV_ASAN=0 skips the sanitizer build (it doubles the build time).
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
cmake --preset default
cmake --build --preset default

# The fuzz preset (clang-14 with -Werror over the whole tree, plus the
# libFuzzer targets): the README's fuzz commands and `niovcheck all` use it,
# a warning only clang gives must not come back, and the kernel-label tests
# fuzz the real code with it, so it is built before the tests run.
# NIOV_FUZZ_PRESET=0 skips it.
if [ "${NIOV_FUZZ_PRESET:-1}" != 0 ]; then
	cmake --preset fuzz
	cmake --build --preset fuzz
fi

ctest --preset default
if [ "${NIOV_FUZZ_PRESET:-1}" != 0 ]; then
	# The misbehaving plugins under the libFuzzer targets themselves (18 s):
	# the only place a plugin dying while libFuzzer loads it is exercised;
	# each target's seeds against each correct plugin (2 s), where a finding
	# is the suite's own false alarm; and the nightly campaign script's
	# verdicts (12 s): the label libfuzzer, the tests that need the
	# libFuzzer binaries.
	ctest --test-dir build-fuzz -L libfuzzer --output-on-failure
fi

if [ "${NIOV_ASAN:-1}" != 0 ]; then
	# The unit and fuzz-replay tests under ASan + UBSan: every finding is
	# fatal.  (The property label runs its full budget in the gcc build.)
	# Two scopings, both judged elsewhere: LeakSanitizer stays off because
	# the plugins emulate the kernel's own leak (a gen_pool with niovs still
	# out is not destroyed) and the suite's resource counters (res.no_leak)
	# judge leaks; the isolation tests (worker_test, misbehave_*) classify
	# the raw signal a plugin dies of, which ASan's handlers replace, so they
	# run in the gcc build above.
	cmake --preset asan
	cmake --build --preset asan
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} ctest --preset asan -L "unit|fuzz" -E "^(worker_test|misbehave_.*)$"
fi
