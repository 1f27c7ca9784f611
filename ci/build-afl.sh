#!/usr/bin/env bash
# AFL++ builds of the fuzz targets through the OSS-Fuzz build.sh, one folder
# per flavour under $1 (default build-afl):
#   fast/    afl-clang-lto (afl-clang-fast with NIOV_AFL_CC=fast), no sanitizer:
#            the -M main instance
#   cmplog/  the same with AFL_LLVM_CMPLOG=1, passed to a secondary with -c
#   asan/    AFL_USE_ASAN + AFL_USE_UBSAN: one secondary, the sanitizer
#            instance
#   decode/  decode-only baselines for the speed ratio (no sanitizer)
#   decode-asan/  the same with ASan + UBSan
# usage: ci/build-afl.sh [OUT_DIR] [FLAVOUR...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build-afl}")
shift || true
flavours=${*:-fast cmplog asan decode decode-asan}

# afl-clang-lto is collision-free and faster, but needs the LLVM it was built
# against; fall back to afl-clang-fast when it cannot link a test program.
cc=afl-clang-fast cxx=afl-clang-fast++
if [ "${NIOV_AFL_CC:-lto}" = lto ] && command -v afl-clang-lto++ >/dev/null &&
	echo 'int main(){return 0;}' | AFL_QUIET=1 afl-clang-lto++ -x c++ - -o /tmp/niov-afl-lto-probe.$$ 2>/dev/null; then
	cc=afl-clang-lto cxx=afl-clang-lto++
	export AR=llvm-ar-14 RANLIB=llvm-ranlib-14 AS=llvm-as-14
fi
rm -f /tmp/niov-afl-lto-probe.$$

for f in $flavours; do
	env=(AFL_QUIET=1)
	case $f in
	fast | decode) ;;
	cmplog) env+=(AFL_LLVM_CMPLOG=1) ;;
	asan | decode-asan) env+=(AFL_USE_ASAN=1 AFL_USE_UBSAN=1) ;;
	*) echo "build-afl: unknown flavour $f" >&2; exit 2 ;;
	esac
	case $f in decode*) env+=(NIOV_FUZZ_DECODE_ONLY=1) ;; esac
	mkdir -p "$out/$f/work"
	echo "build-afl: $f with $cxx"
	env "${env[@]}" CC=$cc CXX=$cxx CFLAGS="-O2 -g" CXXFLAGS="-O2 -g" \
		LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$out/$f" WORK="$out/$f/work" \
		NIOV_JOBS="${NIOV_JOBS:-2}" bash fuzz/oss-fuzz/build.sh >"$out/$f/build.log" 2>&1 ||
		{ tail -20 "$out/$f/build.log"; exit 1; }
	rm -rf "$out/$f/work"
done
echo "build-afl: $flavours in $out"
