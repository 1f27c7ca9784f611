#!/usr/bin/env bash
# `niovcheck prove` end to end: bad input, the full run (every lemma x every
# configuration) and its budget, the unsound combinations' counterexamples
# replayed by `niovcheck replay` as the same invariant violation, promotion,
# --if-changed against the rules' fingerprint, --smt2-dir and --matrix.
# usage: prove_test.sh NIOVCHECK SOURCE_DIR [FULL_RUN_DIR]
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Bad input: exit 2 and exactly one line on stderr.
for args in "--lemma nope" "--rules foo" "--timeout-ms 0" "--timeout-ms x" "--frob" "--jobs 0" \
	"--matrix --lemma sizing" "--report /proc/nope/r.json --lemma zcrx"; do
	# shellcheck disable=SC2086
	"$bin" prove $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok; else
		bad "prove $args: exit $rc, stderr:"; head -3 "$tmp/err"; fi
done
"$bin" prove --list >"$tmp/list" && grep -q 'unsound.truesize_page' "$tmp/list" && ok || bad "prove --list"

# The full run: the fixture's (FULL_RUN_DIR, see full_run.sh), else one here.
full=${3:-}
if [ -z "$full" ]; then
	full=$tmp/full
	bash "$(dirname "$0")/full_run.sh" "$bin" "$full" >/dev/null
fi
rc=$(cat "$full/rc" 2>/dev/null || echo none)
[ "$rc" = 0 ] && ok || { bad "full prove run in $full: exit $rc"; head -5 "$full/err" 2>/dev/null; }
python3 - "$full/run.json" "$(cat "$full/wall" 2>/dev/null || echo 0)" <<'PY' && ok || bad "full run report"
import json, sys
j = json.load(open(sys.argv[1]))
wall = float(sys.argv[2])
rows = j["lemmas"]
assert j["ok"], [r["id"] for r in rows if not r["ok"]]
ids = {r["id"] for r in rows}
for want in ["sizing.pow2_range", "sizing.fold", "rx.pp_order", "lookup.byte_map", "lookup.scan_dma",
             "clamp.limits", "clamp.desc_exact", "clamp.sum", "truesize.trim_head", "truesize.shift",
             "unsound.truesize_page", "unsound.lookup_page", "unsound.max_frag_none_bnxt",
             "unsound.noaddr_genpool"]:
    assert want in ids, want
for r in rows:
    assert r["verdict"] and r["configs"] > 0, r["id"]
    for x in r["results"]:
        assert x["verdict"] != "unknown", (r["id"], x["point"])
# Every configuration of the domain ran: page shifts 12/14/16, every device.
pts = {x["point"] for r in rows if r["id"] == "clamp.desc_exact" for x in r["results"]}
for ps in (12, 14, 16):
    for dev in ("none", "mlx5", "gve", "fbnic", "bnxt"):
        assert any(p.startswith(f"ps{ps} dev={dev} ") for p in pts), (ps, dev)
# The budget: 30 s on 2 cores.  Z3's CPU time is what this code controls (the
# wall clock also counts other load on a shared machine): at most 60 s.
print(f"full run: {len(rows)} rows, {j['configs']} configurations, {j['queries']} queries, "
      f"Z3 cpu {j['z3_cpu_s']:.1f} s, wall {wall:.1f} s")
assert j["z3_cpu_s"] <= 60, j["z3_cpu_s"]
PY

# Each unsound combination's counterexample replays as the same violation.
python3 - "$full/run.json" >"$tmp/cexes" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["lemmas"]:
    if r["id"].startswith("unsound."):
        files = [x["scenario"] for x in r["results"] if x.get("replay_confirms")]
        print(r["id"], r["invariant"], files[0] if files else "-")
PY
[ "$(wc -l <"$tmp/cexes")" -eq 4 ] && ok || bad "four unsound checks"
while read -r check inv file; do
	if [ "$file" = "-" ]; then bad "$check: no replayed counterexample"; continue; fi
	# The file expects what it shows: replay exits 0, as check does, and prints it.
	"$bin" replay "$file" >"$tmp/replay" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q "$inv" "$tmp/replay" && ok || bad "$check: replay of $file: exit $rc, no $inv"
done <"$tmp/cexes"
# The files record their own expectations: `check` finds them as expected.
"$bin" check "$full/cex" >"$tmp/check" 2>&1 && ok || { bad "check of the counterexamples"; tail -3 "$tmp/check"; }

# --promote: one scenario per unsound check into a corpus folder.
mkdir -p "$tmp/corpora/regressions"
"$bin" prove --lemma unsound --promote "$tmp/corpora/regressions" --report "$tmp/r2.json" \
	--cex-dir "$tmp/cex2" >"$tmp/promote" 2>&1 && ok || bad "prove --promote"
[ "$(ls "$tmp/corpora/regressions"/prove-unsound-*.scn 2>/dev/null | wc -l)" -eq 4 ] && ok ||
	{ bad "four promoted scenarios"; ls "$tmp/corpora/regressions"; }
for f in "$tmp/corpora/regressions"/*.scn; do
	"$bin" check "$f" >/dev/null 2>&1 && ok || bad "promoted $f does not replay as recorded"
done

# --if-changed: unchanged rules skip the run; a change to the rules re-runs it.
mkdir -p "$tmp/src"
(cd "$src" && cp --parents model/rules/rules.hpp model/rules/word.hpp model/rules/config.hpp model/rules/config.cpp model/rules/errno.hpp \
	model/RULES.md smt/sym_word.hpp smt/lemma.hpp smt/lemmas/* "$tmp/src/")
run_if_changed() {
	"$bin" prove --lemma zcrx --if-changed --source-dir "$tmp/src" --report "$tmp/r3.json" --cex-dir "$tmp/cex3" \
		>"$tmp/ic" 2>&1
}
run_if_changed && ! grep -q skipped "$tmp/ic" && ok || bad "first --if-changed run must prove"
run_if_changed && grep -q skipped "$tmp/ic" && ok || { bad "second --if-changed run must skip"; cat "$tmp/ic"; }
echo "// a change" >>"$tmp/src/model/rules/rules.hpp"
run_if_changed && ! grep -q skipped "$tmp/ic" && ok || bad "--if-changed after a rules change must prove"
run_if_changed && grep -q skipped "$tmp/ic" && ok || bad "--if-changed skips again"

# --smt2-dir: every query of the run, as files.
"$bin" prove --lemma truesize --smt2-dir "$tmp/smt2" --report "$tmp/r4.json" --cex-dir "$tmp/cex4" >/dev/null 2>&1 &&
	[ "$(ls "$tmp/smt2" | wc -l)" -gt 10 ] && grep -q '(check-sat)' "$tmp/smt2"/*.smt2 && ok || bad "--smt2-dir"

# The soundness matrix answers "is patch P safe without patch Q".
"$bin" prove --matrix --report "$tmp/r5.json" >"$tmp/matrix" 2>&1 && ok || { bad "prove --matrix"; tail -5 "$tmp/matrix"; }
grep -q 'patch 6   without 2  : UNSAFE: tcp.truesize_covers_bytes' "$tmp/matrix" && ok || bad "matrix: 6 without 2"
grep -q 'patch 6   without 3  : UNSAFE: lookup' "$tmp/matrix" && ok || bad "matrix: 6 without 3"
grep -q 'patch 6   without 4-5: UNSAFE: dev.desc_len_exact (.*bnxt' "$tmp/matrix" && ok || bad "matrix: 6 without 4-5"
grep -q 'patch 2   alone on net-next: safe' "$tmp/matrix" && ok || bad "matrix: 2 alone"
sed -n '1,25p' "$tmp/matrix"

echo "prove_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
