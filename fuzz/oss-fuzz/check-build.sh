#!/usr/bin/env bash
# ctest fuzz_oss_fuzz_build: run the OSS-Fuzz build.sh as the OSS-Fuzz
# builder would (clang-14, libFuzzer, ASan + UBSan) into a temporary $OUT,
# then check what it left: each target, its seed corpus zip, dict and
# options, no project shared library needed, and every seed replayed clean
# with the dict loaded.  Exit 77 (skipped) without clang-14 / libFuzzer.
# usage: check-build.sh SOURCE_DIR
set -euo pipefail
root=$1
command -v clang++-14 >/dev/null || { echo "clang++-14 missing: skipped"; exit 77; }
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	{ echo "libclang-rt-14-dev missing: skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CC=clang-14 CXX=clang++-14
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export OUT=$tmp/out SRC=$root WORK=$tmp/work
mkdir -p "$WORK"
bash "$root/fuzz/oss-fuzz/build.sh"

status=0
for t in bind send config scenario; do
	for f in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
		[ -s "$OUT/$f" ] || { echo "FAIL: \$OUT/$f missing"; status=1; }
	done
	[ -x "$OUT/$t" ] || { echo "FAIL: $t not executable"; status=1; continue; }
	if ldd "$OUT/$t" | grep -q fmt; then echo "FAIL: $t needs libfmt at run time"; status=1; fi
	mkdir -p "$tmp/seeds/$t"
	unzip -q "$OUT/${t}_seed_corpus.zip" -d "$tmp/seeds/$t"
	n=$(find "$tmp/seeds/$t" -type f | wc -l)
	[ "$n" -gt 0 ] || { echo "FAIL: $t seed corpus empty"; status=1; }
	if ! "$OUT/$t" -runs=0 -dict="$OUT/$t.dict" "$tmp/seeds/$t" >"$tmp/$t.log" 2>&1; then
		echo "FAIL: $t does not replay its seeds:"; tail -5 "$tmp/$t.log"; status=1
	else
		echo "ok: $t ($n seeds, $(grep -c . "$OUT/$t.dict") dict lines)"
	fi
done
exit $status
