#!/usr/bin/env bash
# The full proof run (every lemma x every configuration) once, into DIR, for
# the tests that read it (prove_test.sh, solvers_test.sh: a ctest fixture),
# so CI proves everything once rather than once per reader (45 s of 2 cores).
# DIR gets run.json (the --json answer), report.json, cex/, smt2/, and rc and
# wall: the run's exit code and wall seconds, judged by the readers.
# usage: full_run.sh NIOVCHECK DIR
set -u
[ $# -eq 2 ] || { echo "usage: full_run.sh NIOVCHECK DIR" >&2; exit 2; }
bin=$1 dir=$2
[ -x "$bin" ] || { echo "full_run.sh: $bin is not an executable" >&2; exit 2; }
rm -rf "$dir" && mkdir -p "$dir" || exit 2
t0=$(date +%s.%N)
"$bin" prove --json --report "$dir/report.json" --cex-dir "$dir/cex" --smt2-dir "$dir/smt2" \
	>"$dir/run.json" 2>"$dir/err"
echo $? >"$dir/rc"
t1=$(date +%s.%N)
python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$t1" >"$dir/wall"
# The readers judge the run; this fails only when there is nothing to read.
[ -s "$dir/run.json" ] || { echo "full_run.sh: prove wrote no report (exit $(cat "$dir/rc"))"; head -5 "$dir/err"; exit 1; }
