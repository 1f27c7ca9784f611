#!/usr/bin/env bash
# Export every query of the full proof run and re-check them with z3, cvc5 and
# Boolector as programs: the same verdicts as Z3 in process; prints the
# three solvers' times side by side.
# usage: solvers_test.sh NIOVCHECK SCRIPT_DIR
set -u
bin=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" prove --json --smt2-dir "$tmp/smt2" --report "$tmp/report.json" --cex-dir "$tmp/cex" >"$tmp/run.json" || {
	echo "FAIL: prove run"; exit 1; }
# The 3 hardest queries per lemma here; NIOV_SOLVERS_ALL=1 (the proof CI
# job) re-checks every one.
per=3
[ "${NIOV_SOLVERS_ALL:-0}" = 1 ] && per=0
python3 "$dir/recheck_solvers.py" "$tmp/run.json" --jobs 2 --timeout 20 --per-lemma $per
