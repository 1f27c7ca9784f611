#!/usr/bin/env bash
# A kernel tree made of a base and some patches of a series, for the tests
# of `kernel check` on each step: series_tree.sh BASE DEST SERIES_DIR N...
# copies BASE to DEST and applies SERIES_DIR/000N-*.patch for each N, in
# the order given, with patch -p1 as a developer would (offsets and fuzz
# allowed: a series applied without one of its patches needs them).  A
# hunk that does not apply is an error (exit 2): a test must not check a
# tree other than it says.
set -euo pipefail
base=$1 dest=$2 series=$3
shift 3
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
cp -r "$base" "$dest"
for n in "$@"; do
	p=$(ls "$series"/000"$n"-*.patch 2>/dev/null | head -1)
	[ -n "$p" ] || { echo "series_tree.sh: no patch $n in $series" >&2; exit 2; }
	patch -s -p1 --no-backup-if-mismatch -d "$dest" <"$p" || { echo "series_tree.sh: $p does not apply" >&2; exit 2; }
done
