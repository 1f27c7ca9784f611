#!/usr/bin/env bash
# Out-of-tree plugins as a user meets them: a copy of net_next.c renamed
# (so nothing can go by the name) built three ways (niovcheck plugin build,
# --asan, and find_package(niovcheck) + niovcheck_add_plugin in a project of
# its own), then checked with a relative --impl path; mutants takes it as a
# variant and takes a folder of external variants.
# usage: plugin_build_test.sh NIOVCHECK SOURCE_DIR BUILD_DIR
set -u
bin=$1 src=$2 build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tmp" || exit 1
export NIOV_FAILURE_DIR=$tmp/failures

sed 's/\.name = "net-next"/.name = "my-nn"/' "$src/plugins/kernel/net_next.c" >my_nn.c
grep -q '"my-nn"' my_nn.c || bad "the renamed copy"

out=$("$bin" plugin build my_nn.c -o libmy_nn.so) || bad "plugin build failed"
[ "$out" = "$tmp/libmy_nn.so" ] && [ -f libmy_nn.so ] || bad "plugin build printed '$out'"

# A relative path, no ./, and the rules the plugin declares (not its name).
"$bin" check "$src/corpora/scenarios" --impl libmy_nn.so >check.out 2>&1 || { bad "check on the renamed copy"; cat check.out; }
grep -q "rules net-next (declared by plugin my-nn)" check.out || bad "check header: $(head -1 check.out)"
grep -q " 0 unexpected; .* skipped" check.out || bad "check does not count the skipped scenarios"
"$bin" props --impl libmy_nn.so --cases 50 >props.out 2>&1 || { bad "props on the renamed copy"; tail -5 props.out; }

# ASan: niovcheck runs the command again under the ASan runtime by itself.
"$bin" plugin build my_nn.c --asan -o libmy_nn_asan.so >/dev/null || bad "plugin build --asan"
"$bin" replay "$src/corpora/scenarios/tx_memfd_4k.scn" --impl libmy_nn_asan.so --rules net-next >asan.out 2>asan.err ||
	{ bad "replay under ASan"; cat asan.err; }

# find_package(niovcheck) from another project.
mkdir ext
cp my_nn.c ext/
cat >ext/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.25)
project(ext C)
find_package(niovcheck REQUIRED)
niovcheck_add_plugin(my_nn my_nn.c)
CM
if cmake -S ext -B ext/build -G Ninja -DCMAKE_PREFIX_PATH="$build" >cmake.log 2>&1 &&
	cmake --build ext/build >>cmake.log 2>&1; then
	"$bin" check "$src/corpora/scenarios" --impl ext/build/libmy_nn.so >/dev/null 2>&1 ||
		bad "the find_package-built plugin does not check clean"
else
	bad "find_package(niovcheck) project does not build"; tail -20 cmake.log
fi

# mutants: any plugin is a variant; a folder of external variants.
"$bin" mutants --impl libmy_nn.so --engines replay >mut1.out 2>&1
[ $? -eq 1 ] && grep -q "SURVIVED" mut1.out || { bad "a sound external plugin must survive (exit 1)"; cat mut1.out; }
mkdir variants
cat >slip.c <<C
#define NIOV_PLUGIN_NAME "ext-truesize-page"
#define NIOV_PLUGIN_DESC "an external slip: TX frags charge PAGE_SIZE"
#define NIOV_PLUGIN_MUST_CATCH "tcp.truesize_covers_bytes"
#define DEVMEM_TX_TRUESIZE(size) PAGE_SIZE
#include "$src/plugins/kernel/tx_autosize.c"
C
"$bin" plugin build slip.c -o variants/libslip.so >/dev/null || bad "build the external variant"
cp libmy_nn.so variants/
"$bin" mutants --variants-dir variants --engines replay >mut2.out 2>&1
grep -q "ext-truesize-page .* caught" mut2.out && grep -q "my-nn .* SURVIVED" mut2.out ||
	{ bad "--variants-dir: the slip caught, the sound one surviving"; cat mut2.out; }
# Variants of different presets in one folder: a v1 plugin cannot declare
# its rules, its sidecar does.  Two files of one base share its name: each
# is picked by its file.
cp "$build/lib/libniov_v1_tx_autosize.so" variants/libv1.so
printf '# what a v1 plugin cannot say\nrules tx-autosize\n' >variants/libv1.rules
cp variants/libslip.so variants/libslip2.so
"$bin" mutants --variants-dir variants --engines replay >mut3.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "v1-tx-autosize .* SURVIVED" mut3.out && grep -q "ext-truesize-page@libslip2 .* caught" mut3.out ||
	{ bad "--variants-dir with a sidecar and a shared name: exit $rc"; cat mut3.out; }
"$bin" mutants --variants-dir variants --variant libslip2 --engines replay --json >mut4.json 2>&1
python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['variants']; assert [x['plugin'].endswith('/libslip2.so') for x in v] == [True], v" mut4.json ||
	bad "--variant by file: $(head -c 300 mut4.json)"

# Bad input: exit 2.
"$bin" plugin build nope.c >/dev/null 2>err; [ $? -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] || bad "missing source: $(cat err)"
echo 'this is not C' >broken.c
# One line, the compiler's messages kept in a log it names.
"$bin" plugin build broken.c >/dev/null 2>err; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "does not compile" err || bad "a file that does not compile: exit $rc: $(cat err)"
log=$(grep -o "log: [^)]*" err | cut -c6-)
[ -s "$log" ] || bad "no compiler log at '$log'"
# C that compiles into no plugin: no niov_impl_get to load.
echo 'int not_a_plugin(void) { return 0; }' >nosym.c
"$bin" plugin build nosym.c >/dev/null 2>err; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "niov_impl_get" err || bad "a C file without niov_impl_get: exit $rc: $(cat err)"
[ -e libnosym.so ] && bad "plugin build left libnosym.so, which is no plugin"
"$bin" mutants --variants-dir "$tmp/none" >/dev/null 2>err; [ $? -eq 2 ] || bad "--variants-dir of nothing"
# A v1 plugin's source built against today's header, its version left at
# NIOV_IMPL_ABI_VERSION: refused, with what a v1 source should say.
cat >v1src.c <<C
#define NIOV_PLUGIN_NAME "v1-src"
#define NIOV_PLUGIN_DESC "a v1 source built against today's header"
#define NIOV_PLUGIN_MUST_CATCH NULL
#define NIOV_PLUGIN_CUSTOM_OPS
#include "$src/plugins/kernel/tx_autosize.c"
static const struct niov_impl_ops v1src_ops = {
	.abi_version = NIOV_IMPL_ABI_VERSION,
	.name = NIOV_PLUGIN_NAME,
	.bind = tx_autosize_bind,
	.unbind = devmem_op_unbind,
	.niov_shift = devmem_op_niov_shift,
	.num_niovs = devmem_op_num_niovs,
	.niov_dma_addr = devmem_op_niov_dma_addr,
	.get_niov_at = tx_autosize_get_niov_at,
	.fill = tx_autosize_fill,
};
NIOV_EXPORT const struct niov_impl_ops *niov_impl_get(void) { return &v1src_ops; }
C
"$bin" plugin build v1src.c >/dev/null || bad "build the v1 source"
"$bin" replay "$src/corpora/scenarios/tx_memfd_4k.scn" --impl libv1src.so >/dev/null 2>err; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "abi_version = 1" err || bad "a v1 source as v2: exit $rc: $(cat err)"

[ $fail -eq 0 ] && echo "plugin_build_test: ok"
exit $fail
