#!/usr/bin/env bash
# Every file the suite is pointed at is a regular file within its size
# limit, or exit 2 with one line naming it, quickly: a FIFO must not block
# a read or a dlopen, a symlink to /dev/zero must not be read until memory
# runs out, an unreadable file is said to be unreadable, not missing.
# usage: cli_bounded_input_test.sh NIOVCHECK SOURCE_DIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tmp" || exit 1
scn=$src/corpora/scenarios/tx_hugetlb_2m.scn

# CMD... must exit 2 within 20 s (and 1 GiB) with one line on stderr matching $want.
# (An ASan build reserves terabytes of shadow: no address-space cap there.)
cap=1048576
ldd "$bin" 2>/dev/null | grep -q libasan && cap=unlimited
want=""
refused() {
	(ulimit -v $cap; timeout 20 "$bin" "$@") >/dev/null 2>err
	local rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qE "$want" err ||
		bad "$*: exit $rc (124: hung), want 2 with one line /$want/: $(head -c 300 err)"
}

mkfifo fifo.scn
want="fifo.scn: a FIFO, not a regular file"
refused replay fifo.scn
refused explain fifo.scn --json
refused corpus decode fifo.scn out.scn
refused replay "$scn" --impl fifo.scn
ln -s /dev/zero zero.scn
want="zero.scn: a character device, not a regular file"
refused replay zero.scn
refused corpus decode zero.scn out.scn --target scenario

cp -r "$src/kernel/fixtures/tx-era" tree
rm tree/net/core/devmem.c && mkfifo tree/net/core/devmem.c
want="devmem.c: a FIFO, not a regular file"
refused kernel probe tree
refused kernel build tree --cache "$tmp/cache"
rm tree/net/core/devmem.c && ln -s /dev/zero tree/net/core/devmem.c
want="devmem.c: a character device, not a regular file"
refused kernel probe tree
refused kernel build tree --cache "$tmp/cache"

# Unreadable is not missing (as root, through another user: root reads anything).
rm tree/net/core/devmem.c && cp "$src/kernel/fixtures/tx-era/net/core/devmem.c" tree/net/core/ &&
	chmod 000 tree/net/core/devmem.c && chmod -R a+rX "$tmp" && chmod 000 tree/net/core/devmem.c
run_as=()
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || [ ${#run_as[@]} -gt 0 ]; then
	"${run_as[@]}" "$bin" kernel probe "$tmp/tree" >/dev/null 2>err
	rc=$?
	[ $rc -eq 2 ] && grep -q "devmem.c: cannot read: Permission denied" err ||
		bad "unreadable devmem.c: exit $rc: $(cat err)"
fi

[ $fail -eq 0 ] && echo "cli_bounded_input_test: ok"
exit $fail
