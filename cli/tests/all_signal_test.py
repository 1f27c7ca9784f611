#!/usr/bin/python3
"""SIGINT, SIGTERM and SIGHUP stop a running `niovcheck all` whole: no
process of the run survives it (engine children run in their own process
groups, where a terminal's or `timeout`'s signal does not reach them), the
report of what finished is written (stdout and --junit, marked interrupted)
and the exit code is 128 + the signal.

usage: all_signal_test.py NIOVCHECK LIB_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def pids_with(text):
    """Processes whose command line names @text (the run's own plugin copy)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    out.append(int(pid))
        except OSError:
            pass
    return out


def case(niovcheck, plugin, tmp, tag, sig, args, env=None):
    """-> list of failures"""
    fails = []
    # A copy under a unique name: its path finds every process of this run.
    mine = os.path.join(tmp, f"sig-{tag}.so")
    shutil.copy(plugin, mine)
    junit = os.path.join(tmp, f"{tag}.xml")
    cmd = [niovcheck, "all", "--impl", mine, "--work-dir", os.path.join(tmp, f"w-{tag}"), "--junit", junit] + args
    with open(os.path.join(tmp, f"{tag}.out"), "wb") as out, open(os.path.join(tmp, f"{tag}.err"), "wb") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=dict(os.environ, **(env or {})))
        time.sleep(4)  # into the engines
        if p.poll() is not None:
            return [f"{tag}: ended before the signal (exit {p.returncode})"]
        p.send_signal(sig)
        try:
            code = p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            code = p.wait()
            fails.append(f"{tag}: still running 20 s after {sig.name}")
    time.sleep(0.5)
    left = pids_with(mine)
    if left:
        fails.append(f"{tag}: {len(left)} process(es) of the run survive {sig.name}: {left}")
        for pid in left:  # not on a shared machine
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    if code != 128 + sig:
        fails.append(f"{tag}: exit {code}, want {128 + sig} after {sig.name}")
    report = open(os.path.join(tmp, f"{tag}.out")).read()
    if "--json" in args:
        try:
            j = json.loads(report)
            if j.get("verdict") != "interrupted" or j.get("interrupted_by") != sig.name:
                fails.append(f"{tag}: JSON verdict {j.get('verdict')} by {j.get('interrupted_by')}")
        except ValueError:
            fails.append(f"{tag}: no JSON report on stdout: {report[:200]!r}")
    elif ("interrupted by " + sig.name).lower() not in report.lower():
        fails.append(f"{tag}: the report does not say it was interrupted: {report[-300:]!r}")
    if not os.path.exists(junit) or "interrupted" not in open(junit).read():
        fails.append(f"{tag}: no --junit report marked interrupted")
    return fails


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    niovcheck, lib = sys.argv[1], sys.argv[2]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        # A plugin call that never returns, under a long per-call limit: the
        # engine child spins until someone ends it.
        fails += case(niovcheck, os.path.join(lib, "libniov_mb_loop_fill.so"), tmp, "term", signal.SIGTERM,
                      ["--engines", "replay"], {"NIOV_OP_TIMEOUT": "600"})
        # A correct plugin in the middle of a long props run.
        fails += case(niovcheck, os.path.join(lib, "libniov_tx_autosize.so"), tmp, "int", signal.SIGINT,
                      ["--engines", "replay,props", "--cases", "2000000", "--json"])
        fails += case(niovcheck, os.path.join(lib, "libniov_tx_autosize.so"), tmp, "hup", signal.SIGHUP,
                      ["--engines", "props", "--cases", "2000000", "--tap"])
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("all_signal_test: ok")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
