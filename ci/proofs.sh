#!/usr/bin/env bash
# Proofs: on changes to the model, the proofs or the rule presets, and
# weekly.  Re-proves only when the rules' fingerprint changed, then prints
# the seed 000 soundness matrix.
# usage: ci/proofs.sh [--dry-run] [--force]
set -euo pipefail
cd "$(dirname "$0")/.."

dry=0 if_changed=--if-changed
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--force) if_changed= ;;
	*) echo "proofs: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
# shellcheck source=ci/lib.sh
. ci/lib.sh

install_and_build
# shellcheck disable=SC2086
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run build/bin/niovcheck prove $if_changed >"$out" || { cat "$out"; exit 1; }
cat "$out"
# Unchanged rules: the last verdict stands, nothing more to prove.
if grep -q 'skipped, last verdict' "$out"; then
	exit 0
fi
run build/bin/niovcheck prove --matrix
NIOV_SOLVERS_ALL=1 run ctest --preset default -L proof
