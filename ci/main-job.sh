#!/usr/bin/env bash
# The main job (the README's first command): install, build, then run
# `niovcheck all` -- every engine, one verdict -- on each correct
# kernel-shaped plugin (build/lib/niov_correct_plugins.txt), on the declared rule change of plugins/examples, and
# on the Debian 6.12 kernel tree when its source package is installed.
# Each run ends in its verdict table; JUnit XML of each goes to build/main-job/.
# usage: ci/main-job.sh [--budget presubmit|nightly]
set -euo pipefail
cd "$(dirname "$0")/.."
budget=presubmit
if [ "${1:-}" = --budget ]; then budget=$2; fi

bash ci/install-deps.sh >/dev/null
cmake --preset default >/dev/null
cmake --build --preset default >/dev/null
# The libFuzzer targets (clang-14): `all` fuzzes each target with them, and
# says "not run (why)" without them.
if ! { cmake --preset fuzz >/dev/null &&
	cmake --build --preset fuzz --target send_fuzzer bind_fuzzer config_fuzzer scenario_fuzzer >/dev/null; }; then
	echo "main-job: the libFuzzer build failed: the fuzz engine will say not run"
fi

out=build/main-job
mkdir -p "$out"
status=0
run_all() {  # NAME ARGS...: one verdict
	local name=$1
	shift
	echo
	echo "== niovcheck all $*"
	build/bin/niovcheck all "$@" --budget "$budget" --no-build-fuzz --junit "$out/$name.xml" \
		--work-dir "$out/$name" || status=1
}
for plugin in $(cat build/lib/niov_correct_plugins.txt); do
	run_all "$plugin" --impl "build/lib/libniov_$plugin.so"
done
# A patch that changes a rule on purpose, declared (model/RULES.md).
run_all tx_cap_1m --impl build/lib/libniov_tx_cap_1m.so --policy tx_niov_max=1M
# The real 6.12 code, when Debian's linux-source-6.12 is there.
if [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	bash kernel/tests/extract_612.sh build/linux-6.12
	# 6.12 lacks the May 2026 size/sg-length checks: its verdict names that
	# known bug (exit 1).  The job fails on anything else.
	echo
	echo "== niovcheck all --kernel build/linux-6.12"
	rc=0
	build/bin/niovcheck all --kernel build/linux-6.12 --budget "$budget" --no-build-fuzz \
		--junit "$out/linux-6.12.xml" --work-dir "$out/linux-6.12" | tee "$out/linux-6.12.txt" || rc=$?
	if [ "$rc" = 1 ] && ! grep -E '^ *[0-9]+\. ' "$out/linux-6.12.txt" | grep -qv '^ *[0-9]*\. known bug of linux-6.12'; then
		echo "main-job: 6.12 shows its known bug only, as expected"
	elif [ "$rc" != 0 ]; then
		status=1
	fi
else
	echo
	echo "== the Debian 6.12 tree: not run (linux-source-6.12 is not installed)"
fi
echo
echo "== frags per skb over every start offset (the seed 000 tables)"
build/bin/niovcheck simulate
exit $status
