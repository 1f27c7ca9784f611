#!/usr/bin/env bash
# A copy of a kernel tree with one slip planted, for the negative tests of
# `kernel check`: mutate_tree.sh SRC DST FILE SED-EXPR.  The copy lives in
# the build folder; the expression must change FILE (else exit 2, so a tree
# whose text moved cannot make the test pass vacuously).
set -euo pipefail
src=$1 dst=$2 file=$3 expr=$4
rm -rf "$dst"
mkdir -p "$(dirname "$dst")"
cp -r "$src" "$dst"
sed -i -e "$expr" "$dst/$file"
if cmp -s "$src/$file" "$dst/$file"; then
	echo "mutate_tree.sh: '$expr' changed nothing in $file" >&2
	exit 2
fi
