#!/usr/bin/env bash
# One case's damage never reaches the next: three scenarios in one
# `niovcheck check` run -- clean, damaging, clean -- on trees derived from
# our freelist fixture that do the damage on the middle input only.
#
#   heap_check_test.sh NIOVCHECK SOURCE_DIR WORK KERNEL_CACHE
#
# `check` runs its scenarios in one forked worker, in order, and starts a
# fresh one only after a worker died (model/worker.cpp run_batch), so the
# middle case runs in the same process as the first, and the third in the
# one the middle case left unless the runtime stops that process.
#
#  - overflow tree: the bind sizes its niov area one short when the dmabuf
#    holds exactly three niovs, and net_iov_init() writes past it.  The
#    middle row is one finding naming the heap-buffer-overflow and the
#    allocating call site, whose replay command reproduces it; the first
#    and third rows are what they are without the middle case.
#  - left-behind tree: the unbind leaves its rx queue bound to the provider
#    on the same input.  The middle row is one finding naming what was left
#    behind; the third (the first scenario again) comes out as the first.
#  - the fixture itself takes all three inputs cleanly: the middle one is
#    an input correct code binds, not a bad file.
set -uo pipefail
bin=$1 src=$2 work=$3
export NIOV_KERNEL_CACHE=$4
scn=$src/kernel/tests/scenarios
fixture=$src/kernel/fixtures/freelist-era
mutate=$src/kernel/tests/mutate_tree.sh

rm -rf "$work" && mkdir -p "$work" || exit 2
bash "$mutate" "$fixture" "$work/overflow-tree" net/core/devmem.c \
	's/kvcalloc(n, sizeof(\*binding->area.niovs)/kvcalloc(n - (n == 3), sizeof(*binding->area.niovs)/' || exit 2
bash "$mutate" "$fixture" "$work/left-behind-tree" net/core/devmem.c \
	's/^\t\tnetif_mp_close_rxq(binding->dev, get_netdev_rx_queue_index(rxq), &params);/\t\tif (binding->area.num_niovs != 3)\n&/' ||
	exit 2
plugin() {
	"$bin" kernel build "$1" 2>>"$work/build.log" | awk '/^plugin /{print $2}'
}
fixed=$(plugin "$fixture") overflow=$(plugin "$work/overflow-tree") left=$(plugin "$work/left-behind-tree")
[ -f "$fixed" ] && [ -f "$overflow" ] && [ -f "$left" ] || { cat "$work/build.log"; exit 2; }

# check NAME PLUGIN SCENARIO...: the JSON verdict, its stderr and exit code.
check() {
	local name=$1 impl=$2
	shift 2
	"$bin" check --json --impl "$impl" "$@" >"$work/$name.json" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
}
two=$scn/heap_rx_two_niovs.scn three=$scn/heap_rx_three_niovs.scn four=$scn/heap_tx_four_niovs.scn
check fixture "$fixed" "$two" "$three" "$four"
check overflow-alone "$overflow" "$two" "$four"
check overflow "$overflow" "$two" "$three" "$four"
check left-alone "$left" "$two"
check left "$left" "$two" "$three" "$two"

WORK=$work OVERFLOW_TREE=$work/overflow-tree OVERFLOW=$overflow LEFT=$left THREE=$three python3 - <<'EOF'
import json, os, re, subprocess, sys
work = os.environ["WORK"]
failed = False
def bad(msg):
    global failed
    print("FAIL: " + msg)
    failed = True
def run(name):
    rc = int(open(f"{work}/{name}.rc").read())
    rows = json.load(open(f"{work}/{name}.json"))["scenarios"]
    return rc, rows
# What a row says about its scenario, apart from where it ran.
def verdict(row):
    return {k: row.get(k) for k in ("result", "as_expected", "note", "bind_err", "niov", "findings")}

rc, rows = run("fixture")
if rc != 0 or len(rows) != 3 or not all(r.get("as_expected") and not r["findings"] for r in rows):
    bad(f"the fixture does not take all three inputs cleanly (exit {rc}): {rows}")

def one_finding(name, alone, middle_wants, replay_wants):
    rc, rows = run(name)
    _, ref = run(alone)
    if rc != 1 or len(rows) != 3:
        bad(f"{name}: exit {rc}, {len(rows)} rows; want exit 1 and three rows")
        return
    for got, want, which in ((rows[0], ref[0], "first"), (rows[2], ref[-1], "third")):
        if verdict(got) != verdict(want) or not got.get("as_expected"):
            bad(f"{name}: the {which} case comes out {verdict(got)} after the middle one, "
                f"{verdict(want)} without it")
    f = rows[1].get("findings", [])
    if len(f) != 1:
        bad(f"{name}: the middle case has {len(f)} findings, want one: {f}")
        return
    f = f[0]
    said = f.get("what", "") + " (" + f.get("where", "") + ")"
    if f.get("id") != "plugin.sanitizer" or not all(w in said for w in middle_wants):
        bad(f"{name}: the middle case's finding does not name {middle_wants}: {f}")
    if not f.get("replay", "").startswith("/") or os.environ["THREE"] not in f.get("replay", ""):
        bad(f"{name}: replay command '{f.get('replay')}' does not run the middle case's file")
        return
    r = subprocess.run(f["replay"], shell=True, capture_output=True, text=True)
    if r.returncode != 1 or "FINDING plugin.sanitizer" not in r.stdout or not all(w in r.stdout for w in replay_wants):
        bad(f"{name}: '{f['replay']}' exits {r.returncode} without the finding: {r.stdout[-600:]}")

tree = os.environ["OVERFLOW_TREE"]
line = next(i for i, l in enumerate(open(f"{tree}/net/core/devmem.c"), 1) if "n - (n == 3)" in l)
site = f"allocated in binding_alloc_tables() at {tree}/net/core/devmem.c:{line}"
overflow = "KernelRuntimeCheck: heap-buffer-overflow WRITE past a 128-byte block " + site
one_finding("overflow", "overflow-alone", [overflow, "in bind of " + os.environ["OVERFLOW"]], [overflow])
left = "KernelRuntimeCheck: state-left-behind"
one_finding("left", "left-alone", [left, "1 rx queue(s) with a memory provider", "in resources of " + os.environ["LEFT"]],
            [left])
sys.exit(1 if failed else 0)
EOF
