#!/usr/bin/python3
"""Valid but hostile inputs finish within their documented bound
or are refused with exit 2 and one `file:line: ... exceeds N (limit)` line.

Each case runs one shipped command in a child with an address-space cap (so a
regression cannot take the machine down) and measures, from the kernel's
accounting (wait4), its CPU seconds and peak RSS, and counts its stdout.
The bounds (model/scenario/limits.hpp and README "Limits"):

  peak RSS   256 MB for every command on every scenario the parser accepts
  CPU time   generous for a loaded 2-core machine, but a quadratic queue
             (the 100,000-send file took 56 s) cannot pass
  stdout     replay and explain text stay readable (summaries); --json is
             full detail
  exit       0 or 1, or 2 with one limit line on stderr: a limit reported
             on stdout as a finding is out of contract

usage: hostile_test.py NIOVCHECK PLUGIN [--measure]
--measure prints the table without judging it (before/after figures) and
allows $NIOV_HOSTILE_TIMEOUT (default 120) wall seconds per case.
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

RSS_LIMIT_MB = 256
TEXT_OUT_LIMIT = 4 << 20   # replay text: what a person can page through
AS_CAP = 2 << 30           # address-space cap of the child (a safety net)

HEAD = "rules tx-autosize\nsg 0x40000000 2M\n"


def scenarios():
    """name -> scenario text: the hostile files."""
    tiny_elems = "send " + " ".join(f"{i * 2}+1" for i in range(1024)) + "\n"
    return {
        "100k_sends": HEAD + "send 0+4K\n" * 100000,
        # each ack trims one byte: the queue grows by one skb per send
        "50k_send_ack": HEAD + "send 0+4K\nack 1\n" * 50000,
        "10k_sends_1_ack": HEAD + "send 0+4K\n" * 10000 + "ack 4096\n",
        "size_goal_1": "rules tx-autosize\nsize_goal 1\nsg 0x40000000 2M\nsend 0+2M\n",
        "size_goal_1_ack": "rules tx-autosize\nsize_goal 1\nsg 0x40000000 2M\nsend 0+2M\nack 1M\n",
        "size_goal_1_x4": "rules tx-autosize\nsize_goal 1\nsg 0x40000000 2M\n" + "send 0+2M\n" * 4,
        "max_frag_1_x8": "rules tx-autosize\ntx_max_frag_size 1\nsg 0x40000000 2M\n" + "send 0+2M\n" * 8,
        "gve_tiny_frags": "rules tx-autosize\ndevice gve\ntx_max_frag_size 1\nsg 0x40000000 2M\n"
                          + "send 0+2M\n" * 2,
        "gve_tiny_elems": "rules tx-autosize\ndevice gve\nmss 8\nsize_goal 16M\nsg 0x40000000 2M\n"
                          + tiny_elems * 64,
        # 16 MiB skbs of 8-byte GSO segments: 2 M segments each
        "gve_mss_8": "rules tx-autosize\ndevice gve\nmss 8\nsize_goal 16M\nsg 0x40000000 16M\n"
                     + "send 0+16M\n" * 64,
        "big_dmabuf": "rules tx-autosize\nsg 0x40000000 64G\nsend 0+4K\n",
    }


def run(cmd, timeout):
    """-> (exit, cpu_s, wall_s, maxrss_mb, stdout_bytes, stderr_text, stdout_says_limit)"""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (AS_CAP, AS_CAP))
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, preexec_fn=cap)
        out = 0
        killed = False
        tail = b""
        says_limit = False  # a limit reported on stdout (as a finding) is out of contract
        os.set_blocking(p.stdout.fileno(), True)
        # Read as it comes (the count is the figure, not the bytes).
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        while True:
            left = timeout - (time.monotonic() - start)
            if left <= 0:
                p.send_signal(signal.SIGKILL)
                killed = True
                break
            if sel.select(min(left, 1.0)):
                chunk = p.stdout.read1(1 << 20)
                if not chunk:
                    break
                out += len(chunk)
                says_limit = says_limit or b"(limit)" in tail + chunk
                tail = chunk[-16:]
        p.stdout.close()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        err.seek(0)
        etext = err.read().decode(errors="replace")
    code = -9 if killed else os.waitstatus_to_exitcode(status)
    return code, ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024, out, etext, says_limit


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    niovcheck, plugin = sys.argv[1], sys.argv[2]
    measure = "--measure" in sys.argv[3:]
    measure_timeout = int(os.environ.get("NIOV_HOSTILE_TIMEOUT", "120"))
    # CPU seconds per case: about 50x what a linear model needs here.
    cpu_bound = {"100k_sends": 30, "50k_send_ack": 30, "10k_sends_1_ack": 5}
    failures = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, text in scenarios().items():
            files[name] = os.path.join(tmp, name + ".scn")
            with open(files[name], "w") as f:
                f.write(text)
        cases = []
        for name, path in files.items():
            cases.append((name, "replay", [niovcheck, "replay", path]))
            cases.append((name, "replay --impl", [niovcheck, "replay", path, "--impl", plugin]))
            cases.append((name, "replay --json", [niovcheck, "replay", path, "--json"]))
            cases.append((name, "replay --json --impl", [niovcheck, "replay", path, "--json", "--impl", plugin]))
            cases.append((name, "explain --impl", [niovcheck, "explain", path, "--impl", plugin]))
            cases.append((name, "explain --json --impl", [niovcheck, "explain", path, "--json", "--impl", plugin]))
            cases.append((name, "check --json", [niovcheck, "check", path, "--json"]))
            cases.append((name, "check --json --impl", [niovcheck, "check", path, "--json", "--impl", plugin]))
        cases.append(("/dev/zero", "corpus decode",
                      [niovcheck, "corpus", "decode", "/dev/zero", os.path.join(tmp, "z.scn")]))
        cases.append(("/dev/zero", "corpus decode --target scenario",
                      [niovcheck, "corpus", "decode", "/dev/zero", os.path.join(tmp, "z.scn"),
                       "--target", "scenario"]))
        for name, what, cmd in cases:
            bound = cpu_bound.get(name, 20)
            code, cpu, wall, rss, out, err, says_limit = run(cmd, measure_timeout if measure else 4 * bound)
            first = err.strip().splitlines()[0] if err.strip() else ""
            rows.append((name, what, code, cpu, rss, out, first))
            if measure:
                continue
            where = f"{name} ({what})"
            if code == 2:
                # /dev/zero is refused before it is read: it is no regular file.
                said = "(limit)" in first or "not a regular file" in first
                if len(err.strip().splitlines()) != 1 or not said:
                    failures.append(f"{where}: exit 2 without one '... exceeds N (limit)' line: {err[:300]!r}")
            elif code not in (0, 1):
                failures.append(f"{where}: exit {code} (killed after {wall:.0f} s?) {first}")
            elif says_limit:  # a limit is bad input, never a finding
                failures.append(f"{where}: exit {code} with a limit on stdout; want exit 2 and one line on stderr")
            if code != -9 and cpu > bound:
                failures.append(f"{where}: {cpu:.1f} CPU s > {bound} s")
            if rss > RSS_LIMIT_MB:
                failures.append(f"{where}: peak RSS {rss:.0f} MB > {RSS_LIMIT_MB} MB")
            if what in ("replay", "explain --impl") and out > TEXT_OUT_LIMIT:
                failures.append(f"{where}: {out} bytes of text > {TEXT_OUT_LIMIT}")
    print(f"{'input':18s} {'command':32s} {'exit':>4s} {'cpu s':>7s} {'RSS MB':>7s} {'stdout':>11s}  note")
    for name, what, code, cpu, rss, out, first in rows:
        print(f"{name:18s} {what:32s} {code:4d} {cpu:7.2f} {rss:7.0f} {out:11d}  {first[:90]}")
    for f in failures:
        print("FAIL:", f)
    if not measure:
        print(f"{len(rows) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
