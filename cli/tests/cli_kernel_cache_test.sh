#!/usr/bin/env bash
# The kernel plugin cache is checked, not trusted:
#  - a truncated or garbage cached plugin.so is rebuilt, and the rebuild
#    says why (it used to fail every later run with "does not load");
#  - another tree's plugin copied into a cache slot is rebuilt, never
#    reported as this tree's "(cached)";
#  - the <entry>.tmp.<pid> folders of builds whose process is gone are
#    removed; a live build's is left alone.
# usage: cli_kernel_cache_test.sh NIOVCHECK SOURCE_DIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cache=$tmp/cache
cp -r "$src/kernel/fixtures/tx-era" "$tmp/tree1"
cp -r "$src/kernel/fixtures/tx-era" "$tmp/tree2"
echo "/* tree2: the same code, other inputs */" >>"$tmp/tree2/net/core/devmem.c"

build() { "$bin" kernel build "$1" --cache "$cache" -o "$tmp/out.so" >/dev/null 2>"$tmp/err"; }
build "$tmp/tree1" || { bad "first build: $(tail -2 "$tmp/err")"; exit 1; }
e1=$(find "$cache" -maxdepth 1 -mindepth 1 -type d | head -1)
build "$tmp/tree2" || bad "second tree: $(tail -2 "$tmp/err")"
e2=$(find "$cache" -maxdepth 1 -mindepth 1 -type d ! -path "$e1" | head -1)
[ -n "$e1" ] && [ -n "$e2" ] || { bad "two cache entries, got '$e1' '$e2'"; exit 1; }

# The clean second run of a tree is cached and quiet.
build "$tmp/tree1" || bad "cached build"
grep -q "rebuilding" "$tmp/err" && bad "a good cache entry was rebuilt: $(cat "$tmp/err")"

truncate -s 100 "$e1/plugin.so"
build "$tmp/tree1"; rc=$?
[ $rc -eq 0 ] && grep -q "not using the cached.*rebuilding" "$tmp/err" ||
	bad "truncated cached plugin: exit $rc: $(tail -2 "$tmp/err")"
cmp -s "$e1/plugin.so" "$tmp/out.so" && [ "$(stat -c %s "$e1/plugin.so")" -gt 100 ] || bad "the truncated plugin was not rebuilt"

cp "$e2/plugin.so" "$e1/plugin.so"
build "$tmp/tree1"; rc=$?
[ $rc -eq 0 ] && grep -q "not using the cached.*rebuilding" "$tmp/err" ||
	bad "another tree's plugin in the slot: exit $rc: $(tail -2 "$tmp/err")"
cmp -s "$e1/plugin.so" "$e2/plugin.so" && bad "another tree's plugin is still in tree1's slot"

sh -c 'exit 0' & dead=$!
wait $dead
mkdir -p "$cache/0123456789abcdef.tmp.$dead" "$cache/0123456789abcdef.tmp.$$"
build "$tmp/tree1" || bad "build beside stale folders"
[ -d "$cache/0123456789abcdef.tmp.$dead" ] && bad "the interrupted build's folder (pid $dead, gone) is still there"
[ -d "$cache/0123456789abcdef.tmp.$$" ] || bad "a live build's folder (pid $$) was removed"

[ $fail -eq 0 ] && echo "cli_kernel_cache_test: ok"
exit $fail
