#!/usr/bin/env python3
"""`all`'s progress on stderr: on a terminal (a pty here) one line per
running engine rewritten in place with \\r, counting items done / total with
elapsed time and an estimate, then one line per engine's outcome; on a pipe
plain lines only (one when an engine starts, one when it ends, no \\r);
with --quiet nothing.

usage: all_progress_test.py NIOVCHECK LIBDIR
"""
import os
import pty
import re
import select
import subprocess
import sys
import tempfile


def run_on_pty(cmd, env):
    """stderr on a pty, stdout on a pipe: what a terminal user sees."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    err = b""
    while True:
        r, _, _ = select.select([master], [], [], 1.0)
        if master in r:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed its end
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    out = p.stdout.read()
    p.wait()
    os.close(master)
    return p.returncode, out.decode(), err.decode(errors="replace")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    niovcheck, libdir = sys.argv[1], sys.argv[2]
    plugin = os.path.join(libdir, "libniov_net_next.so")
    fails = []
    env = dict(os.environ, TERM="xterm")
    with tempfile.TemporaryDirectory() as tmp:
        # Enough cases that the properties run for seconds on a fast
        # machine: the terminal line is redrawn every 50 ms, and a run that
        # ends within one redraw shows no count.
        def cmd(tag, *more):
            return [niovcheck, "all", "--impl", plugin, "--engines", "replay,props", "--cases", "3000",
                    "--work-dir", os.path.join(tmp, tag), "--json", *more]

        rc, out, err = run_on_pty(cmd("tty"), env)
        if rc != 0:
            fails.append(f"on a terminal: exit {rc}: {err[-400:]}")
        if "\r\x1b[K" not in err:
            fails.append(f"on a terminal: no line rewritten in place: {err[-400:]!r}")
        if not re.search(r"niovcheck all: props \d+/\d+ \d+:\d\d", err):
            fails.append(f"on a terminal: no 'props N/M elapsed' line: {err[-600:]!r}")
        if not re.search(r"~\d+:\d\d left", err):
            fails.append(f"on a terminal: no estimate: {err[-600:]!r}")
        for engine in ("replay", "props"):
            if not re.search(rf"niovcheck all: {engine} ok in \d+:\d\d", err):
                fails.append(f"on a terminal: no outcome line for {engine}: {err[-600:]!r}")
        if '"schema"' not in out:
            fails.append("on a terminal: the verdict did not reach stdout")

        p = subprocess.run(cmd("pipe"), capture_output=True, text=True, env=env)
        lines = p.stderr.splitlines()
        if p.returncode != 0 or "\r" in p.stderr or "\x1b" in p.stderr:
            fails.append(f"on a pipe: exit {p.returncode} or a terminal control in {p.stderr!r}")
        for engine in ("replay", "props"):
            if f"niovcheck all: {engine} ..." not in lines:
                fails.append(f"on a pipe: no start line for {engine}: {lines}")
            if not any(re.fullmatch(rf"niovcheck all: {engine} ok in \d+:\d\d.*", l) for l in lines):
                fails.append(f"on a pipe: no end line for {engine}: {lines}")

        rc, out, err = run_on_pty(cmd("quiet", "--quiet"), env)
        if rc != 0 or err.strip():
            fails.append(f"--quiet on a terminal: exit {rc}, stderr {err!r}")
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("all_progress_test: live line on a terminal, plain lines on a pipe, nothing with --quiet")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
