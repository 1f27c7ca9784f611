#!/usr/bin/env bash
# Seed inputs for the fuzz targets, made with the encoder from the shipped
# scenarios (corpora/scenarios) and the fuzz-only layouts (fuzz/seeds): each
# scenario goes to every target whose domain holds it, as
# corpora/<target>/<stem>.bin (corpora/scenario/<stem>.scn holds the canonical
# text), plus a few malformed texts for the parser.  The outputs are
# committed; --check fails when a committed seed is not what the encoder
# makes of its scenario today (the byte layout changed: regenerate), and only
# notes scenarios added since (inputs merged by the nightly job are ignored).
# usage: ci/fuzz-seeds.sh [--check] [NIOVCHECK]
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
niovcheck=${1:-build/bin/niovcheck}
out=corpora
if [ $check = 1 ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi

mkdir -p "$out"/{bind,send,config,scenario}
n=0
for scn in corpora/scenarios/*.scn fuzz/seeds/*.scn; do
	stem=$(basename "$scn" .scn)
	for t in bind send config; do
		# Not in this target's domain: exit 2, no file.
		if "$niovcheck" corpus encode --target $t "$scn" "$out/$t/$stem.bin" 2>/dev/null; then
			n=$((n + 1))
		fi
	done
	"$niovcheck" corpus encode --target scenario "$scn" "$out/scenario/$stem.scn"
done

# The parser's error paths: one malformed line each.
bad() { printf '%b' "$2" >"$out/scenario/bad_$1.scn"; }
bad keyword 'rules tx-autosize\nsg 0x40000000 2M\nbogus 1\n'
bad overflow 'sg 0x40000000 0x10000000000000000\n'
bad suffix_overflow 'dmabuf_size 17179869184T\n'
bad duplicate 'page_shift 12\npage_shift 14\n'
bad config_after_ops 'sg 0 2M\nsend 0+1\ndevice bnxt\n'
bad element 'sg 0 2M\nsend 0+1 5 length=3\n'
bad length_not_last 'sg 0 2M\nsend length=3 0+1\n'
bad policy 'rules net-next\npolicy lookup=page truesize=huge\n'
bad expect 'expect violation tcp.nope\n'
bad crlf_binary 'rules tx-autosize\r\nsg 0x40000000 2M\r\n\x00\xff\r\n'

if [ $check = 1 ]; then
	status=0 missing=0
	for f in $(cd "$out" && find . -type f | sort); do
		if [ ! -e "corpora/$f" ]; then
			missing=$((missing + 1))
		elif ! cmp -s "$out/$f" "corpora/$f"; then
			echo "fuzz-seeds: corpora/${f#./} is stale (run ci/fuzz-seeds.sh)"
			status=1
		fi
	done
	[ $missing = 0 ] || echo "fuzz-seeds: note: $missing seeds for new scenarios not generated yet (run ci/fuzz-seeds.sh)"
	[ $status = 0 ] && echo "fuzz-seeds: $n byte seeds and the scenario seeds are current"
	exit $status
fi
echo "fuzz-seeds: wrote $n byte seeds to corpora/{bind,send,config} and the scenario seeds"
