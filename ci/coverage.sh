#!/usr/bin/env bash
# Line coverage of the model by the fuzz corpora and the shipped scenarios
# (clang source-based coverage, llvm-cov), the nightly report.
# usage: ci/coverage.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.."

dry=0
[ "${1:-}" = --dry-run ] && dry=1
run() { echo "+ $*"; [ "$dry" = 1 ] || "$@"; }

flags="-fprofile-instr-generate -fcoverage-mapping"
run cmake -S . -B build-cov -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
	"-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags"
targets="bind send config scenario"
for t in $targets; do run cmake --build build-cov --target "fuzz_replay_$t"; done
run rm -rf build-cov/profiles
run mkdir -p build-cov/profiles
for t in $targets; do
	dirs="corpora/$t"
	[ "$t" = scenario ] && dirs="$dirs corpora/scenarios"
	echo "+ LLVM_PROFILE_FILE=build-cov/profiles/$t.profraw build-cov/bin/fuzz_replay_$t $dirs"
	# shellcheck disable=SC2086
	[ "$dry" = 1 ] || LLVM_PROFILE_FILE="build-cov/profiles/$t.profraw" build-cov/bin/fuzz_replay_$t $dirs >/dev/null
done
echo "+ llvm-profdata-14 merge ... && llvm-cov-14 report"
if [ "$dry" = 0 ]; then
	llvm-profdata-14 merge -o build-cov/profiles/all.profdata build-cov/profiles/*.profraw
	# llvm-cov 14 wants the first binary as its positional argument (with
	# only -object ones it took model/ for the binary), the others as -object.
	objs=""
	for t in $targets; do objs="$objs${objs:+ -object} build-cov/bin/fuzz_replay_$t"; done
	# shellcheck disable=SC2086
	llvm-cov-14 report $objs -instr-profile build-cov/profiles/all.profdata model/ | tee coverage.txt
fi
