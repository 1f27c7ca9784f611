#!/usr/bin/env bash
# CLI conventions: every command's --help exits 0 and names every option its
# code reads; --version; every JSON output carries its schema tag.
# usage: help_test.sh NIOVCHECK CLI_SOURCE_DIR SCENARIO
set -u
bin=$1 cli=$2 scn=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# FILE COMMAND...: every option FILE reads appears in one of the commands' --help.
check_options() {
	local file=$1
	shift
	local help=""
	for c in "$@"; do
		out=$("$bin" "$c" --help) || bad "$c --help exits $?"
		help+=$out
	done
	opts=$(grep -oE 'args\.(flag|option|options|number)\("[a-z0-9-]+"' "$cli/$file" | sed -E 's/.*\("//; s/"$//' | sort -u)
	grep -q 'rules_request(args)' "$cli/$file" && opts+=$'\nrules\npolicy'
	for o in $opts; do
		want="--$o"
		[ "$o" = output ] && want="-o"
		grep -q -- "$want" <<<"$help" || bad "$* --help does not list $want (read in $file)"
	done
}
check_options replay.cpp replay explain check
check_options simulate.cpp simulate
check_options cmd_props.cpp props
check_options cmd_corpus.cpp corpus
check_options cmd_prove.cpp prove
check_options cmd_mutants.cpp mutants
check_options cmd_fuzz_campaign.cpp fuzz-campaign
check_options cmd_all.cpp all
check_options cmd_plugin.cpp plugin
check_options cmd_kernel.cpp kernel
check_options cmd_series.cpp kernel
"$bin" help >/dev/null || bad "help exits $?"
"$bin" --version | grep -qE '^niovcheck [0-9]+\.[0-9]+ \(plugin ABI v1\.\.v[0-9]+\)$' || bad "--version: $("$bin" --version)"

# Schema tags.
schema() { python3 -c "import json,sys; j=json.load(sys.stdin); assert j.get('schema')=='$1', j.get('schema')" || bad "$2: no schema $1"; }
"$bin" replay "$scn" --json | schema niovcheck-replay/1 replay
"$bin" explain "$scn" --json | schema niovcheck-explain/1 explain
"$bin" check "$scn" --json | schema niovcheck-check/1 check
"$bin" simulate --niov-size 2M --json | schema niovcheck-simulate/1 simulate
"$bin" props --property frag.progress --cases 10 --json | schema niovcheck-props/1 props
"$bin" prove --lemma sizing.pow2_range --json --report "$(mktemp -d)/r.json" | schema niovcheck-prove/1 prove

# One table of presets (model/rules/config.cpp): the help lists them from it, and
# the docs' preset table may not fall behind it.
presets=$("$bin" props --help | sed -n 's/^  --rules \([a-z0-9|.-]*\)$/\1/p' | tr '|' ' ')
[ -n "$presets" ] || bad "props --help lists no presets"
for p in $presets; do
	grep -q "^| \`$p\` " "$cli/../model/RULES.md" || bad "model/RULES.md's preset table lacks $p"
done

[ $fail -eq 0 ] && echo "help_test: ok"
exit $fail
