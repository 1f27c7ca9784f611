#!/usr/bin/env bash
# The scoreboard can say both "caught" and "survived": every catalogued
# variant is caught by the replay, property and (for rule changes) proof
# engines with the invariant its catalogue entry names and a replay command
# that shows it; the sound tx-autosize plugin passed off as a variant
# survives them all and the command exits 1; bad input exits 2.
# usage: mutants_test.sh NIOVCHECK LIB_DIR
set -u
bin=$1 lib=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FAILURE_DIR=$tmp/failures
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$bin" mutants --engines replay,props,fuzz,proof --fuzz-build "$tmp/none" --json >"$tmp/all.json" 2>"$tmp/err"
[ $? -eq 0 ] || bad "every variant must be caught (exit $?)"
python3 - "$tmp/all.json" "$bin" <<'PY' || fail=1
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
ok = True
def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False
if d.get("schema") != "niovcheck-mutants/1":
    bad(f"schema {d.get('schema')}")
if len(d["variants"]) < 16 or d["survivors"] != 0:
    bad(f"{len(d['variants'])} variants, {d['survivors']} survivors")
for v in d["variants"]:
    e = v["engines"]
    for name in ("replay", "props"):
        if not (e[name]["ran"] and e[name]["caught"] and e[name]["invariant"].startswith(v["must_catch"])):
            bad(f"{v['variant']}: {name} engine: {e[name]}")
    # The proofs speak about rule changes only, and catch every one of them.
    if e["proof"]["ran"] != bool(v.get("policy")):
        bad(f"{v['variant']}: proof engine ran={e['proof']['ran']} but policy={v.get('policy')!r}")
    if v.get("policy") and not (e["proof"]["caught"] and e["proof"]["invariant"] == v["must_catch"]):
        bad(f"{v['variant']}: proof engine: {e['proof']}")
    # Without a fuzz build the fuzz engine says so rather than passing.
    if e["fuzz"]["ran"] or "no libFuzzer build" not in e["fuzz"]["note"]:
        bad(f"{v['variant']}: fuzz engine without a build: {e['fuzz']}")
    # The props and proof replay commands show the slip.
    for name in ("props", "proof"):
        cmd = e[name]["replay"]
        if not cmd:
            continue
        r = subprocess.run(cmd.split(), capture_output=True, text=True)
        if r.returncode != 1:
            bad(f"{v['variant']}: '{cmd}' exits {r.returncode}, want 1 (violation or difference)")
sys.exit(0 if ok else 1)
PY

# The sound plugin in a variant's place: nothing to catch.
printf 'broken tx_autosize %s/libniov_tx_autosize.so\n' "$lib" >"$tmp/sound.txt"
"$bin" mutants --plugins "$tmp/sound.txt" --engines replay,props,proof --cases 200 >"$tmp/sound.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "a sound plugin as a variant: exit $rc, want 1"
grep -q "SURVIVED" "$tmp/sound.out" || { bad "a sound plugin must survive"; cat "$tmp/sound.out"; }

# An unbroken v1 plugin (no RX allocator: those properties do not run) is
# no catch either: a property that did not run caught nothing.
"$bin" mutants --impl "$lib/libniov_v1_tx_autosize.so" --rules tx-autosize --engines replay,props --cases 200 \
	>"$tmp/v1.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "SURVIVED" "$tmp/v1.out" || { bad "an unbroken v1 plugin as a variant: exit $rc, want 1 (survived)"; cat "$tmp/v1.out"; }

# A variant whose slip is a crash: the crash is its catch, not a plugin
# fault, in every engine that sees it.
cat >"$tmp/crash.c" <<C
#define NIOV_PLUGIN_NAME "null-fill"
#define NIOV_PLUGIN_DESC "dereferences NULL on the third frag of an skb"
#define NIOV_PLUGIN_MUST_CATCH "plugin.signal"
#define DEVMEM_TX_TRUESIZE(size) ((skb->nr_frags == 2 ? *(volatile int *)0 : 0), (size))
#include "$src/plugins/kernel/tx_autosize.c"
C
(cd "$tmp" && "$bin" plugin build crash.c >/dev/null) || bad "build the crashing variant"
"$bin" mutants --impl "$tmp/libcrash.so" --engines replay,props --cases 200 --json >"$tmp/crash.json" 2>"$tmp/err"
rc=$?
python3 - "$tmp/crash.json" "$rc" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
v = d["variants"][0]
ok = rc == 0 and d["faults"] == 0 and v["caught"] and not v["fault"]
for name, e in v["engines"].items():
    ok = ok and e["caught"] and not e["fault"] and e["invariant"] == "plugin.signal"
if not ok:
    print(f"FAIL: a variant whose slip is a crash: exit {rc}, {json.dumps(v)[:600]}")
sys.exit(0 if ok else 1)
PY

for args in "--engines bogus" "--variant no_such_variant" "--fuzz-seconds 0" "--plugins $tmp/missing.txt"; do
	# shellcheck disable=SC2086
	"$bin" mutants $args >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "mutants $args: exit $rc, want 2 with one line"; cat "$tmp/err"; }
done
[ $fail -eq 0 ] && echo "mutants_test: ok"
exit $fail
