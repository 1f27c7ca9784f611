#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build of the fuzz targets, also used for AFL++
# (ci/build-afl.sh) and checked by ctest (check-build.sh).  Honours $CC $CXX
# $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT and $SRC / $WORK; writes to $OUT
# the targets (bind, send, config, scenario), <target>_seed_corpus.zip,
# <target>.dict and <target>.options.
#
# Everything is compiled here from source with the engine's flags (no
# prebuilt project libraries, as OSS-Fuzz asks); fmt is used header-only so
# the binaries need no shared library beyond libc/libstdc++.
# NIOV_FUZZ_DECODE_ONLY=1 builds the decode-only baselines instead.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${OUT:?}" "${CXX:?}" "${LIB_FUZZING_ENGINE:?}"
CXXFLAGS=${CXXFLAGS:-}
work=${WORK:-$(mktemp -d)}/niovcheck-objs
jobs=${NIOV_JOBS:-$(nproc)}
targets="bind send config scenario"
mkdir -p "$OUT" "$work"

# The model's floors (docs/LAYOUT.md), each a folder of model/.
floors="files rules scenario datapath host check"
flags="$CXXFLAGS -std=c++20 -DFMT_HEADER_ONLY $(for f in $floors; do printf -- '-I%s ' "$root/model/$f"; done)-I$root/fuzz"
[ "${NIOV_FUZZ_DECODE_ONLY:-0}" = 1 ] && flags="$flags -DNIOV_FUZZ_DECODE_ONLY"
export flags work CXX

# One object per source, $jobs at a time.
compile() { $CXX $flags -c "$1" -o "$work/$(basename "$(dirname "$1")")_$(basename "$1" .cpp).o"; }
export -f compile
# The model and every fuzz/ source but the replay driver's main: a new file
# needs no edit here (an archive member nothing calls is not linked).
sources=$(for f in $floors; do ls "$root/model/$f"/*.cpp; done; ls "$root"/fuzz/*.cpp | grep -v '/replay_main\.cpp$')
printf '%s\n' $sources | xargs -P "$jobs" -I{} bash -c 'compile {}'
rm -f "$work/libniov_fuzz.a"
${AR:-ar} rcs "$work/libniov_fuzz.a" $(for s in $sources; do echo "$work/$(basename "$(dirname "$s")")_$(basename "$s" .cpp).o"; done)

# exit() and friends of our own, exported: a plugin's exit(0) inside an
# operation is a finding, not a finished run (model/host/exit_guard.c).
${CC:-clang} ${CFLAGS:-} -c "$root/model/host/exit_guard.c" -o "$work/exit_guard.o"
guard="$work/exit_guard.o -Wl,--export-dynamic-symbol=exit,--export-dynamic-symbol=_exit,--export-dynamic-symbol=_Exit"

for t in $targets; do
	$CXX $flags -c "$root/fuzz/targets/$t.cpp" -o "$work/target_$t.o"
	# Link with $CXX and the engine flags, as OSS-Fuzz requires.
	$CXX $flags "$work/target_$t.o" "$work/libniov_fuzz.a" $guard $LIB_FUZZING_ENGINE -ldl -o "$OUT/$t"
	rm -f "$OUT/${t}_seed_corpus.zip"
	(cd "$root/corpora/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
	cp "$root/corpora/$t.dict" "$root/corpora/$t.options" "$OUT/"
done
echo "niovcheck: built $targets into $OUT"
