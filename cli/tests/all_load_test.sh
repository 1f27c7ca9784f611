#!/usr/bin/env bash
# A plugin's code runs isolated from its first instruction: one that exits,
# crashes or loops in a constructor or in niov_impl_get is a finding row of
# `niovcheck all` (exit 1, the verdict printed, a replay command that shows
# it again), never an `all` that exits 0 with no output, dies of the signal
# or hangs.  `replay` and `check` bound a looping load the same way.
# usage: all_load_test.sh NIOVCHECK LIB_DIR SOURCE_DIR
set -u
bin=$1 lib=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
scn=$src/corpora/scenarios/tx_hugetlb_2m.scn

for p in exit_ctor segv_ctor loop_ctor exit_get segv_get loop_get; do
	so=$lib/libniov_mb_$p.so
	[ -f "$so" ] || { bad "$so not built"; continue; }
	# The per-call limit from the environment: older binaries take it too.
	timeout 120 env NIOV_OP_TIMEOUT=2 "$bin" all --impl "$so" --engines replay --work-dir "$tmp/w-$p" --json \
		>"$tmp/$p.json" 2>"$tmp/$p.err"
	rc=$?
	[ $rc -eq 1 ] || { bad "all on mb_$p: exit $rc, want 1 (124: hung)"; tail -3 "$tmp/$p.err"; continue; }
	python3 - "$tmp/$p.json" "$p" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1])); p = sys.argv[2]
keys = [f["key"] for f in j["findings"]]
ok = len(keys) == 1 and keys[0].startswith("plugin dies while loading") and j["findings"][0]["replay_reproduces"]
if not ok:
    print(f"FAIL: all on mb_{p}: findings {keys}, reproduces {[f['replay_reproduces'] for f in j['findings']]}")
sys.exit(0 if ok else 1)
PY
	for cmd in replay check; do
		timeout 60 env NIOV_OP_TIMEOUT=2 "$bin" $cmd "$scn" --impl "$so" >"$tmp/out" 2>&1
		rc=$?
		[ $rc -eq 1 ] || bad "$cmd on mb_$p: exit $rc, want 1 (124: hung): $(tail -1 "$tmp/out")"
	done
done

# A plugin call that never returns inside an engine: one finding within the
# per-call timeout, not the engine's 600 s per case.
so=$lib/libniov_mb_loop_fill.so
start=$(date +%s)
timeout 300 env NIOV_OP_TIMEOUT=2 "$bin" all --impl "$so" --engines replay,props --cases 50 --work-dir "$tmp/w-hang" \
	--json >"$tmp/hang.json" 2>"$tmp/hang.err"
rc=$? took=$(($(date +%s) - start))
[ $rc -eq 1 ] || bad "all on mb_loop_fill: exit $rc after $took s, want 1 (124: hung)"
[ $took -lt 120 ] || bad "all on mb_loop_fill took $took s (a hung call must cost its timeout, not the engine's)"
python3 - "$tmp/hang.json" <<'PY' || fail=1
import json, sys
keys = [f["key"] for f in json.load(open(sys.argv[1]))["findings"]]
if keys != ["plugin hung"]:
    print(f"FAIL: mb_loop_fill: findings {keys}, want one 'plugin hung'"); sys.exit(1)
PY

# A plugin that calls exit(0) in a call is reported as exiting (the exit
# guard's abort is ours, not a crash), and its replay reproduces it.
"$bin" all --impl "$lib/libniov_mb_exit_fill.so" --engines replay --work-dir "$tmp/w-exit" --json \
	>"$tmp/exit.json" 2>/dev/null
python3 - "$tmp/exit.json" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
if [x["key"] for x in f] != ["plugin exited"] or not f[0]["replay_reproduces"]:
    print(f"FAIL: mb_exit_fill: {[(x['key'], x['replay_reproduces']) for x in f]}, want one 'plugin exited' that reproduces")
    sys.exit(1)
PY

[ $fail -eq 0 ] && echo "all_load_test: ok"
exit $fail
