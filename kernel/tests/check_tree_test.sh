#!/usr/bin/env bash
# `niovcheck kernel check` on a whole tree, judged from its JSON verdict.
#
#   check_tree_test.sh NIOVCHECK TREE WORK FUZZ_BUILD clean ERA [KNOWN]
#       exit 0, the rules ERA named (a preset, or "preset + policies" read off the code), every engine ok (fuzz may be "not run" when
#       FUZZ_BUILD has no targets), and KNOWN (an invariant id) among the
#       known findings the code showed
#   check_tree_test.sh NIOVCHECK TREE WORK FUZZ_BUILD known ERA INVARIANT
#       exit 1, every finding a known bug of the era's rules (6.12's missing
#       May 2026 checks) with INVARIANT among what it violates, and every
#       engine but replay ok
#   check_tree_test.sh NIOVCHECK TREE WORK FUZZ_BUILD broken ERA INVARIANT
#       exit 1 with a finding that names INVARIANT (its id, or a word of its
#       key such as "sanitizer"), each finding with a replay command
#
# The budget is small (the presubmit run of a developer is `kernel check`
# itself); NIOV_CHECK_CASES and NIOV_CHECK_FUZZ_SECONDS raise it;
# NIOV_CHECK_ARGS adds options (--asan); NIOV_CHECK_SITE (broken), a Python
# regular expression, wants a finding that names that place in the tree's code.
set -uo pipefail
niovcheck=$1 tree=$2 work=$3 fuzz_build=$4 mode=$5 era=$6 want=${7:-}
cases=${NIOV_CHECK_CASES:-300}
fuzz_seconds=${NIOV_CHECK_FUZZ_SECONDS:-4}

rm -rf "$work" && mkdir -p "$work" || exit 2
"$niovcheck" kernel check "$tree" --json --cases "$cases" --fuzz-seconds "$fuzz_seconds" \
	--no-build-fuzz --fuzz-build "$fuzz_build" --work-dir "$work/run" ${NIOV_CHECK_ARGS:-} \
	>"$work/verdict.json" 2>"$work/stderr"
rc=$?
SITE=${NIOV_CHECK_SITE:-} MODE=$mode ERA=$era WANT=$want RC=$rc python3 - "$work/verdict.json" <<'EOF'
import json, os, re, sys
mode, era, want, rc = os.environ["MODE"], os.environ["ERA"], os.environ["WANT"], int(os.environ["RC"])
try:
    v = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit(f"{sys.argv[1]}: not a JSON verdict ({e}); exit {rc}")
engines = {e["engine"]: e for e in v["engines"]}
table = ", ".join(f'{e["engine"]} {e["status"]}' for e in v["engines"])
print(f"exit {rc}; {table}")
for f in v["findings"]:
    print(f'finding: {f["key"]}: {f["title"]}\n  replay: {f["replay"]}')
for k in v.get("known_findings", []):
    print(f'known: {k["detail"]}\n  replay: {k["replay"]}')
kernel = engines.get("kernel", {})
if f"rules {era}," not in kernel.get("note", "") and f"rules {era} +" not in kernel.get("note", ""):
    sys.exit(f"the verdict does not name the rules {era}: {kernel.get('note')!r}")
def others_ok(names):
    for name in names:
        if engines.get(name, {}).get("status") != "ok":
            sys.exit(f"engine {name} is not ok: {engines.get(name)}")
    fuzz = engines.get("fuzz", {})
    if fuzz.get("status") != "ok" and "no libFuzzer targets" not in fuzz.get("note", ""):
        sys.exit(f"engine fuzz is neither ok nor not run for want of targets: {fuzz}")
if mode == "known":
    if rc != 1 or not v["findings"]:
        sys.exit(f"expected exit 1 with the era's known bug, got exit {rc}")
    for f in v["findings"]:
        if not f["key"].startswith("known bug"):
            sys.exit(f"a finding that is not the era's known bug: {f['key']}")
        if not f["replay"] or not f["replay_reproduces"]:
            sys.exit(f"the known bug's replay does not show it: {f['replay']!r}")
    if not any(want in f["violates"] for f in v["findings"]):
        sys.exit(f"no known bug violates {want}")
    others_ok(("props", "proof", "faults"))
elif mode == "clean":
    if rc != 0 or v["findings"]:
        sys.exit(f"expected a clean verdict, got exit {rc} with {len(v['findings'])} findings")
    for name in ("replay", "props", "proof", "faults"):
        if engines.get(name, {}).get("status") != "ok":
            sys.exit(f"engine {name} is not ok: {engines.get(name)}")
    fuzz = engines.get("fuzz", {})
    if fuzz.get("status") != "ok" and "no libFuzzer targets" not in fuzz.get("note", ""):
        sys.exit(f"engine fuzz is neither ok nor not run for want of targets: {fuzz}")
    if want and not any(want in k["invariant"].split() for k in v.get("known_findings", [])):
        sys.exit(f"the known finding {want} is not listed")
else:
    if rc != 1 or not v["findings"]:
        sys.exit(f"expected exit 1 with findings, got exit {rc}")
    if not any(want in f["key"] or want in f["violates"] or
               any(want == o.get("invariant") for o in f["seen_by"]) for f in v["findings"]):
        sys.exit(f"no finding names {want}")
    if any(not f["replay"] for f in v["findings"]):
        sys.exit("a finding has no replay command")
    named = [f for f in v["findings"] if want in f["key"] or want in f["violates"]]
    site = os.environ["SITE"]
    if site and not any(re.search(site, f["title"]) for f in named):
        sys.exit(f"no finding naming {want} points into the code at {site}: {[f['title'] for f in named]}")
    if named and not any(f["replay_reproduces"] for f in named):
        sys.exit(f"the replay of the finding naming {want} does not reproduce it: {named[0]['replay']}")
EOF
