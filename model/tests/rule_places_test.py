#!/usr/bin/env python3
"""Every restatement of a rule is on RULES.md's table ("Where each rule
lives"): for each rule, the sources (not tests) that match its marker must
be listed under it, and every listed file must exist.  A file that starts
restating a rule without being listed fails here, so the table stays the
list of what to visit when a rule changes.

usage: rule_places_test.py SOURCE_DIR"""
import os
import re
import sys

SOURCES = (".cpp", ".hpp", ".c", ".h")
SKIP_DIRS = {".git", "tests", "fixtures"}


def rules(text):
    section = text.split("## Where each rule lives", 1)
    if len(section) != 2:
        sys.exit("RULES.md has no 'Where each rule lives' section")
    out = []
    for block in section[1].split("\n### ")[1:]:
        name = block.splitlines()[0].strip()
        marker = re.search(r"^marker: `(.+)`$", block, re.M)
        if not marker:
            sys.exit(f"RULES.md: rule '{name}' has no marker line")
        listed = set()
        for line in block.splitlines():
            if line.startswith("- "):
                listed.update(re.findall(r"`([\w./-]+\.(?:cpp|hpp|c|h))`", line.split(" — ")[0]))
        out.append((name, re.compile(marker.group(1)), listed))
    return out


def sources(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        for f in files:
            if f.endswith(SOURCES):
                p = os.path.join(d, f)
                yield os.path.relpath(p, root), open(p, errors="replace").read()


def main():
    root = sys.argv[1]
    table = rules(open(os.path.join(root, "model", "RULES.md")).read())
    files = list(sources(root))
    bad = []
    for name, marker, listed in table:
        for path in sorted(listed):
            if not os.path.exists(os.path.join(root, path)):
                bad.append(f"{name}: lists {path}, which does not exist")
        for path, text in files:
            if marker.search(text) and path not in listed:
                bad.append(f"{name}: {path} restates it (matches {marker.pattern!r}) but is not listed")
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print(f"rule_places_test: {len(table)} rules, every restatement listed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
