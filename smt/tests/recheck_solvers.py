#!/usr/bin/env python3
"""Re-check the SMT-LIB2 queries `niovcheck prove --smt2-dir` exported with
other solvers (z3, cvc5 and Boolector as programs) and compare verdicts with
the ones Z3 gave in process.  Prints the three solvers' times side by side,
per lemma, and exits 1 on any disagreement or solver error; a timeout is
listed as inconclusive (no verdict is not a different verdict).

usage: recheck_solvers.py REPORT.json [--timeout S] [--jobs N] [--per-lemma N] [--table FILE]
--per-lemma N re-checks the N queries of each lemma Z3 took longest on
(every lemma still meets all three solvers; the whole set is for the proof
CI job and ci/bench).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SOLVERS = {
    "z3": ["z3", "-smt2"],
    "cvc5": ["cvc5", "--lang=smt2"],
    "boolector": ["boolector", "--smt2"],
}


def run(solver, path, timeout):
    """(verdict, CPU seconds of that solver process) on one file."""
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(SOLVERS[solver] + [path], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return "timeout", timeout
            time.sleep(0.002)
        p.returncode = 0  # reaped here; keep Popen from waiting again
        out.seek(0)
        lines = out.read().decode(errors="replace").strip().splitlines()
    verdict = next((l.strip() for l in lines if l.strip() in ("sat", "unsat", "unknown")), None)
    if verdict is None:
        verdict = "error: " + (lines[0][:80] if lines else "no output")
    return verdict, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--per-lemma", type=int, default=0)
    ap.add_argument("--table")
    a = ap.parse_args()
    for s, cmd in SOLVERS.items():
        if not shutil.which(cmd[0]):
            print(f"recheck_solvers: {cmd[0]} not installed (ci/install-deps.sh)")
            return 1
    rep = json.load(open(a.report))
    queries = []  # (lemma, file, expected, z3 api seconds)
    seen = set()
    for row in rep["lemmas"]:
        for r in row["results"]:
            for q in r.get("queries", []):
                if q["file"] in seen:
                    continue
                seen.add(q["file"])
                queries.append((row["lemma"], q["file"], q["expect"], q["z3_cpu_s"]))
    if a.per_lemma:
        by_lemma = collections.defaultdict(list)
        for q in queries:
            by_lemma[q[0]].append(q)
        queries = [q for qs in by_lemma.values()
                   for q in sorted(qs, key=lambda q: (-q[3], q[1]))[:a.per_lemma]]
    if not queries:
        print("recheck_solvers: the report names no exported queries (run prove with --smt2-dir)")
        return 1
    jobs = [(s, q) for q in queries for s in SOLVERS]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(run, s, q[1], a.timeout): (s, q[1]) for s, q in jobs}
        for f in concurrent.futures.as_completed(futs):
            results[futs[f]] = f.result()

    per = collections.OrderedDict()
    bad = []
    inconclusive = []
    for lemma, path, expect, api in queries:
        row = per.setdefault(lemma, {"n": 0, "api": 0.0, **{s: 0.0 for s in SOLVERS}, "agree": 0})
        row["n"] += 1
        row["api"] += api
        agree = True
        for s in SOLVERS:
            verdict, secs = results[(s, path)]
            row[s] += secs
            if verdict in ("timeout", "unknown"):
                # No verdict is not a different verdict: reported, not failed.
                inconclusive.append(f"{s}: {verdict} after {secs:.0f} s on {path} (Z3: {expect})")
                agree = False
            elif verdict != expect:
                agree = False
                bad.append(f"{s} says {verdict} on {path}, expected {expect}")
        row["agree"] += agree

    lines = [f"{'lemma':28s} {'queries':>7s} {'z3 (api)':>9s} {'z3':>8s} {'cvc5':>8s} {'boolector':>9s}  agree"]
    tot = collections.Counter()
    for lemma, r in per.items():
        lines.append(f"{lemma:28s} {r['n']:7d} {r['api']:8.2f}s {r['z3']:7.2f}s {r['cvc5']:7.2f}s {r['boolector']:8.2f}s  "
                     f"{r['agree']}/{r['n']}")
        for k in ("n", "api", *SOLVERS, "agree"):
            tot[k] += r[k]
    lines.append(f"{'total':28s} {tot['n']:7d} {tot['api']:8.2f}s {tot['z3']:7.2f}s {tot['cvc5']:7.2f}s "
                 f"{tot['boolector']:8.2f}s  {tot['agree']}/{tot['n']}")
    text = "\n".join(lines)
    print(text)
    if a.table:
        open(a.table, "w").write(text + "\n")
    for i in inconclusive:
        print("INCONCLUSIVE:", i)
    for b in bad[:20]:
        print("DISAGREE:", b)
    print(f"{tot['n']} queries: {len(bad)} disagreements, {len(inconclusive)} solver runs without a verdict")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
