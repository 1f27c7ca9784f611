#!/usr/bin/env bash
# Nightly: `niovcheck kernel check` on the real Debian 6.12 tree and on the
# TX-era fixture trees with the nightly budget the presubmit tests cut down
# (kernel/tests/check_tree_test.sh): 60 s of each fuzz target against the
# real code, 5,000 cases per property.  6.12 must show its known bug and
# nothing else, the fixture with the May 2026 fix must be clean, the one
# without it broken.
# usage: ci/kernel-nightly.sh [FUZZ_SECONDS [CASES]]
set -euo pipefail
cd "$(dirname "$0")/.."
export NIOV_CHECK_FUZZ_SECONDS=${1:-60} NIOV_CHECK_CASES=${2:-5000}
export NIOV_KERNEL_CACHE=$PWD/build/kernel-cache
cmake --build --preset default >/dev/null
cmake --build --preset fuzz --target send_fuzzer bind_fuzzer config_fuzzer scenario_fuzzer >/dev/null
work=build/kernel-nightly
bash kernel/tests/extract_612.sh build/kernel-trees/linux-6.12
bash kernel/tests/make_variant_tree.sh tx-era build/kernel-trees/tx-era-prefix-nightly 'size/sg fix'
check() { bash kernel/tests/check_tree_test.sh build/bin/niovcheck "$1" "$work/$2" build-fuzz "${@:3}"; }
check build/kernel-trees/linux-6.12 612 known linux-6.12 bind.niov_dma
check kernel/fixtures/tx-era tx-fixed clean baseline
check build/kernel-trees/tx-era-prefix-nightly tx-prefix broken baseline-unfixed 'known bug'
echo "kernel-nightly: all three verdicts as expected ($NIOV_CHECK_FUZZ_SECONDS s per fuzz target, $NIOV_CHECK_CASES cases)"
