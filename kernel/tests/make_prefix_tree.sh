#!/usr/bin/env bash
# The era (b) fixture as it was before the May 2026 fix: a copy of
# kernel/fixtures/tx-era into DEST without the lines marked "size/sg fix".
set -euo pipefail
src=$(dirname "$0")/../fixtures/tx-era
dest=$1
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$src"/. "$dest"/
grep -v 'size/sg fix \*/' "$src/net/core/devmem.c" > "$dest/net/core/devmem.c"
