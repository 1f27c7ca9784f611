#!/usr/bin/env bash
# Install, build and run the main job: every shipped scenario through the model
# and the kernel-shaped plugin of its rules, ending in a verdict table.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh >/dev/null
cmake --preset default >/dev/null
cmake --build --preset default >/dev/null

status=0
echo "== model"
build/bin/niovcheck check corpora/scenarios || status=1
for rules in baseline net-next tx-autosize; do
	plugin=build/lib/libniov_${rules//-/_}.so
	echo
	echo "== plugin ${plugin} on the ${rules} scenarios"
	files=$(grep -l "^rules ${rules}\b" corpora/scenarios/*.scn | xargs grep -L "^policy" || true)
	# shellcheck disable=SC2086
	build/bin/niovcheck check --impl "$plugin" $files || status=1
done
echo
echo "== frags per skb over every start offset (seed 000 tables)"
build/bin/niovcheck simulate || true   # the 64 KiB-page bnxt row shows the truncation it exists to show
exit $status
