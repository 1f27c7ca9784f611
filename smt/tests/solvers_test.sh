#!/usr/bin/env bash
# Export every query of the full proof run and re-check them with z3, cvc5 and
# Boolector as programs: the same verdicts as Z3 in process; prints the
# three solvers' times side by side.
# usage: solvers_test.sh NIOVCHECK SCRIPT_DIR [FULL_RUN_DIR]
set -u
bin=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The full run: the fixture's (FULL_RUN_DIR, see full_run.sh), else one here.
full=${3:-}
if [ -z "$full" ]; then
	full=$tmp/full
	bash "$dir/full_run.sh" "$bin" "$full" >/dev/null
fi
[ "$(cat "$full/rc" 2>/dev/null)" = 0 ] || { echo "FAIL: prove run (exit $(cat "$full/rc" 2>/dev/null))"; exit 1; }
# The 3 hardest queries per lemma here; NIOV_SOLVERS_ALL=1 (the proof CI
# job) re-checks every one.
per=3
[ "${NIOV_SOLVERS_ALL:-0}" = 1 ] && per=0
python3 "$dir/recheck_solvers.py" "$full/run.json" --jobs 2 --timeout 20 --per-lemma $per
