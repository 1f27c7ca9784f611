#!/usr/bin/env bash
# A tree as mainline had it before the memory-provider hooks (6.12.0 -
# 6.13, 6.12.y without their backport), derived from Debian's 6.12, which
# has them: devmem.c without its memory_provider_ops table (the queue's
# mp_priv alone says a provider is bound) and no memory_provider.h.
# usage: pre_mp_tree.sh SRC DEST.  Exit 2 when the edits miss, so a tree
# whose text moved cannot make the tests built on it pass vacuously.
set -euo pipefail
src=$1 dest=$2
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$src"/. "$dest"/
rm -f "$dest/include/net/page_pool/memory_provider.h"
sed -i -e '/#include <net\/page_pool\/memory_provider.h>/d' \
	-e '/^static const struct memory_provider_ops dmabuf_devmem_ops;$/d' \
	-e '/^static const struct memory_provider_ops dmabuf_devmem_ops = {$/,/^};$/d' \
	-e '/mp_params\.mp_ops = /d' \
	-e 's/if (rxq->mp_params\.mp_ops)/if (rxq->mp_params.mp_priv)/' \
	"$dest/net/core/devmem.c"
if grep -q 'memory_provider\|mp_ops' "$dest/net/core/devmem.c" || cmp -s "$src/net/core/devmem.c" "$dest/net/core/devmem.c"; then
	echo "pre_mp_tree: $src/net/core/devmem.c did not lose its memory_provider_ops" >&2
	exit 2
fi
