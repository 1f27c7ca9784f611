#!/usr/bin/env bash
# Extracts the files kernel tree mode reads from Debian's linux-source-6.12
# into DEST (once: a stamp records it; decompressing takes ~20-40 s).
# Never into the source tree: the tree is an input, not content.
set -euo pipefail
dest=$1
tarball=${NIOV_LINUX_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -e "$dest/.extracted" ] && exit 0
[ -r "$tarball" ] || { echo "extract_612: $tarball missing (ci/install-deps.sh installs linux-source-6.12)" >&2; exit 2; }
mkdir -p "$dest"
tar -xJf "$tarball" -C "$dest" --strip-components=1 --wildcards \
	'linux-source-6.12/net/core/*.h' 'linux-source-6.12/net/core/devmem.c' \
	'linux-source-6.12/net/core/datagram.c' 'linux-source-6.12/include/net/netmem.h' \
	'linux-source-6.12/include/net/page_pool/*' 'linux-source-6.12/include/linux/genalloc.h' \
	'linux-source-6.12/lib/genalloc.c' 'linux-source-6.12/Makefile'
touch "$dest/.extracted"
