#!/usr/bin/env bash
# A fixture tree with one check taken out: a copy of FIXTURE (a folder under
# kernel/fixtures) into DEST without the lines of net/core/devmem.c marked
# "/* MARKER */".  tx-era + "size/sg fix" is the tree before the May 2026
# fix; freelist-era + "sg addr check" a freelist bind that forgets the sg
# address.  Fails if no line carries the marker (the variant would be the
# fixture itself, and the test built on it could not fail).
set -euo pipefail
src=$(dirname "$0")/../fixtures/$1
dest=$2
marker=$3
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$src"/. "$dest"/
grep -q "$marker \*/" "$src/net/core/devmem.c" || { echo "make_variant_tree: no '$marker' line in $src" >&2; exit 2; }
grep -v "$marker \*/" "$src/net/core/devmem.c" > "$dest/net/core/devmem.c"
