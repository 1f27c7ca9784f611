#!/usr/bin/env bash
# The scoreboard's fuzz engine judges findings as the others do: over every
# shipped variant (a short budget: this checks the judging, not the
# fuzzing) exit 0, no survivor and no plugin fault, a variant whose slip
# is abi.fill_errno (frags_full_enomem) included; and a variant whose slip
# is a crash is caught by it, not faulted.
# usage: mutants_fuzz_test.sh NIOVCHECK FUZZ_BUILD_DIR SOURCE_DIR
set -u
bin=$1 fuzz=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_FAILURE_DIR=$tmp/failures
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -x "$fuzz/bin/send_fuzzer" ] || { echo "mutants_fuzz_test: no libFuzzer build in $fuzz (skipped)"; exit 77; }

"$bin" mutants --engines replay,props,fuzz --fuzz-build "$fuzz" --fuzz-seconds 5 --cases 200 --json \
	>"$tmp/all.json" 2>"$tmp/err"
rc=$?
python3 - "$tmp/all.json" "$rc" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
bad = []
if rc != 0 or d["survivors"] or d["faults"]:
    bad.append(f"exit {rc}, {d['survivors']} survivors, {d['faults']} faults")
for v in d["variants"]:
    f = v["engines"]["fuzz"]
    if not f["ran"] or v["fault"] or f["fault"]:
        bad.append(f"{v['variant']}: fuzz {json.dumps(f)[:300]}")
for b in bad:
    print("FAIL:", b)
print(f"{len(d['variants'])} variants, fuzz caught {sum(v['engines']['fuzz']['caught'] for v in d['variants'])}")
sys.exit(1 if bad else 0)
PY

cat >"$tmp/crash.c" <<C
#define NIOV_PLUGIN_NAME "null-fill"
#define NIOV_PLUGIN_DESC "dereferences NULL on the third frag of an skb"
#define NIOV_PLUGIN_MUST_CATCH "plugin.signal"
#define DEVMEM_TX_TRUESIZE(size) ((skb->nr_frags == 2 ? *(volatile int *)0 : 0), (size))
#include "$src/plugins/kernel/tx_autosize.c"
C
(cd "$tmp" && "$bin" plugin build crash.c >/dev/null) || bad "build the crashing variant"
"$bin" mutants --impl "$tmp/libcrash.so" --engines fuzz --fuzz-build "$fuzz" --fuzz-seconds 20 --json \
	>"$tmp/crash.json" 2>"$tmp/err"
rc=$?
python3 - "$tmp/crash.json" "$rc" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
f = d["variants"][0]["engines"]["fuzz"]
if rc != 0 or d["faults"] or not f["caught"] or f["fault"]:
    print(f"FAIL: a variant whose slip is a crash, under the fuzz engine: exit {rc}, {json.dumps(f)[:400]}")
    sys.exit(1)
PY

[ $fail -eq 0 ] && echo "mutants_fuzz_test: ok"
exit $fail
