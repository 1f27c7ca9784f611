#!/usr/bin/env bash
# The proof engine of `all` takes a kept passing result only for exactly
# what it proves: a second run with the same rules is "cached"; --no-cache,
# the nightly budget, other policies and a changed rule source prove again.
# usage: proof_cache_test.sh NIOVCHECK SOURCE_DIR PLUGIN
set -u
bin=$1 src=$2 plugin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NIOV_PROOF_CACHE=$tmp/cache
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# runs LABEL ARGS...: the proof engine's "what ran" column, and its verdict
runs() {
	local label=$1
	shift
	"$bin" all --impl "$plugin" --engines proof --json --work-dir "$tmp/w-$label" "$@" >"$tmp/$label.json" 2>"$tmp/$label.err"
	local rc=$?
	python3 - "$tmp/$label.json" "$rc" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
e = [e for e in v["engines"] if e["engine"] == "proof"][0]
print(f'{e["status"]} {sys.argv[2]} {e["runs"]}')
PY
}
cached() { [[ "$1" == *"(cached, fingerprint "* ]]; }

first=$(runs first) || bad "first run: no verdict"
[[ "$first" == "ok 0 "* ]] || bad "the first run did not prove clean: $first"
cached "$first" && bad "the first run says cached: $first"
second=$(runs second)
[[ "$second" == "ok 0 "* ]] && cached "$second" || bad "the same rules again were not taken from the cache: $second"
again=$(runs nocache --no-cache)
cached "$again" && bad "--no-cache took the cache: $again"
nightly=$(runs nightly --budget nightly --cases 1)
cached "$nightly" && bad "the nightly budget took the cache: $nightly"
policy=$(runs policy --policy truesize=len)
cached "$policy" && bad "other policies took the cache: $policy"

# A changed rule source: a copy of what the fingerprint reads, one comment more.
mkdir -p "$tmp/src"
cp -r "$src/model" "$src/smt" "$tmp/src/"
echo "// a changed rule" >>"$tmp/src/model/rules/rules.hpp"
changed=$(runs changed --source-dir "$tmp/src")
cached "$changed" && bad "a changed model/rules/rules.hpp took the cache: $changed"
[[ "$changed" == "ok 0 "* ]] || bad "the changed tree did not prove clean: $changed"
after=$(runs after --source-dir "$tmp/src")
cached "$after" || bad "the changed tree's own result was not kept: $after"

exit $fail
