#!/usr/bin/env bash
# `all --summary`: plain text for a mail.  No line past 72 columns, no
# escape codes, the rules and every engine named, and each finding's
# replay command, cut at 72 columns with backslashes, runs as pasted (and
# fails again, exit 1).
# usage: summary_test.sh NIOVCHECK BROKEN_PLUGIN
set -u
bin=$1 broken=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$bin" all --impl "$broken" --engines replay,props --cases 50 --summary --work-dir "$tmp/w" >"$tmp/s.txt" 2>/dev/null
rc=$?
[ $rc = 1 ] || bad "exit $rc, want 1"
long=$(awk 'length > 72' "$tmp/s.txt")
[ -z "$long" ] || bad "lines past 72 columns: $long"
grep -q $'\e' "$tmp/s.txt" && bad "escape codes in the summary"
grep -q '^rules ' "$tmp/s.txt" || bad "no rules line"
for e in replay props; do grep -q "^$e " "$tmp/s.txt" || bad "no line for engine $e"; done
grep -q '^verdict: [0-9]* finding' "$tmp/s.txt" || bad "no verdict line"
# The first replay command, as a shell reads the pasted lines.
cmd=$(awk '/^  \//{on=1} on{print} on && !/\\$/{exit}' "$tmp/s.txt")
[ -n "$cmd" ] || bad "no replay command"
(cd "$tmp" && eval "$cmd" >/dev/null 2>&1)
[ $? = 1 ] || bad "the pasted replay command does not fail again: $cmd"
[ $fail = 0 ] && echo "summary_test: ok"
exit $fail
