#!/usr/bin/env bash
# `niovcheck kernel series` on the fixture series (kernel/fixtures/
# freelist-era-series on kernel/fixtures/freelist-era), judged from its JSON
# verdict, or from its one line on bad input.
#
#   series_test.sh NIOVCHECK SOURCE WORK FUZZ_BUILD MODE
#
#   files        the four patch files: exit 0, every step clean under the
#                rules read off it, the Documentation hunk listed as not
#                compiled, every step's added lines of code exercised
#   mbox         the same as one mbox (a cover letter, the patches, a reply
#                that suggests a change as a diff: skipped)
#   range        the same as --range over a git repository made here; the
#                repository's status, HEAD and refs are the same afterwards
#   no-truesize  0002-0004 without 0001: exit 1, first bad patch the
#                auto-size one (the third step), rules violate
#                tcp.truesize_covers_bytes, its replay reproducing it
#   slip3        0003 with a slip planted in its fill clamp: exit 1, first
#                bad patch the third, a model-vs-code difference
#   ktap         --tap of the series without 0001 (replay and props): the
#                kernel's own kunit.py (Debian's linux-source-6.12) parses it
#                and counts the passes, failures and skips the JSON verdict
#                has; the first bad patch is the one 'not ok' step
#   bad-apply    0001 twice: exit 2, one line naming the patch, the file and
#                the hunk
#   bad-merge    --range over a merge commit: exit 2, one line
#   bad-mbox     an mbox with a cover letter and a reply only: exit 2, one line
#   bad-nocompiled  a patch touching only Documentation/: exit 2, one line
#
# Every mode checks that the base tree (and the repository) is unchanged.
# The budget is check_tree_test.sh's (NIOV_CHECK_CASES, NIOV_CHECK_FUZZ_SECONDS);
# mbox and range run replay and props only: they check the input forms,
# which give the same steps as the patch files.
set -uo pipefail
niovcheck=$1 source=$2 work=$3 fuzz_build=$4 mode=$5
cases=${NIOV_CHECK_CASES:-300}
fuzz_seconds=${NIOV_CHECK_FUZZ_SECONDS:-4}
base=$source/kernel/fixtures/freelist-era
series=$source/kernel/fixtures/freelist-era-series
p() { ls "$series"/000"$1"-*.patch; }

fail() { echo "series_test.sh $mode: $*" >&2; exit 1; }
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum; find . | sort) | md5sum; }

rm -rf "$work" && mkdir -p "$work" || exit 2
base_before=$(snapshot "$base")

budget=(--cases "$cases" --fuzz-seconds "$fuzz_seconds" --no-build-fuzz --fuzz-build "$fuzz_build"
	--work-dir "$work/run" --json)

# A git repository holding the base and the four patches, as a user's would.
make_repo() {
	local repo=$work/repo
	mkdir -p "$repo" && cp -r "$base"/. "$repo"/ && rm -f "$repo/README.md"
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t.invalid
	git -C "$repo" init -q -b work && git -C "$repo" add -A && git -C "$repo" commit -qm base &&
		git -C "$repo" tag base && git -C "$repo" am -q "$series"/000*.patch || fail "cannot make the repository"
}
repo_state() { git -C "$1" status --porcelain; git -C "$1" rev-parse HEAD; git -C "$1" show-ref; git -C "$1" symbolic-ref HEAD; }

run() {
	"$niovcheck" kernel series "$@" >"$work/out" 2>"$work/err"
	rc=$?
}

# Exit 2 with one line on stderr and nothing on stdout.
bad_input() {
	local want=$1
	cat "$work/err"
	[ "$rc" = 2 ] || fail "exit $rc, not 2"
	[ "$(grep -c . "$work/err")" = 1 ] || fail "stderr is not one line"
	[ ! -s "$work/out" ] || fail "something on stdout"
	grep -q -- "$want" "$work/err" || fail "the line does not say '$want'"
}

judge() {
	MODE=$mode RC=$rc python3 - "$work/out" <<'EOF'
import json, os, sys
mode, rc = os.environ["MODE"], int(os.environ["RC"])
try:
    v = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit(f"not a JSON verdict ({e}); exit {rc}")
assert v["schema"] == "niovcheck-series/1", v["schema"]
steps = v["steps"]
for s in steps:
    eng = ", ".join(f'{e["engine"]} {e["mark"]}' for e in s["engines"])
    cov = s["coverage"]
    c = f'{cov.get("exercised")}/{cov.get("lines_of_code")}' if cov["measured"] else "-"
    print(f'step {s["step"]}: {s.get("subject", "base")}: {s["rules_label"]}; {eng}; new {[f["key"] for f in s["new"]]}; coverage {c}')
for w in v["warnings"]:
    print("warning:", w)
def engines_ok(s):
    for e in s["engines"]:
        if e["engine"] == "fuzz" and e["status"] == "not run" and "no libFuzzer targets" in e["note"]:
            continue
        if e["status"] != "ok":
            sys.exit(f'step {s["step"]}: engine {e["engine"]} is {e["status"]}: {e["note"]}')
if mode in ("files", "mbox", "range"):
    if rc != 0 or v["verdict"] != "clean" or v["first_bad"] is not None:
        sys.exit(f"expected a clean series, got exit {rc}, first bad {v['first_bad']}")
    want = ["net-next", "net-next + truesize=len", "net-next + lookup=niov truesize=len",
            "net-next + lookup=niov truesize=len max_frag=device", "tx-autosize"]
    got = [s["rules_label"] for s in steps]
    if got != want:
        sys.exit(f"the rules per step are {got}, not {want}")
    for s in steps:
        engines_ok(s)
        if s["new"] or s["carried"]:
            sys.exit(f'step {s["step"]} has findings')
        if s["step"] == 0:
            continue
        cov = s["coverage"]
        if not cov["measured"] or not cov["lines_of_code"] or cov["exercised"] != cov["lines_of_code"]:
            sys.exit(f'step {s["step"]}: its added lines of code are not all exercised: {cov}')
    if v["warnings"]:
        sys.exit(f"warnings: {v['warnings']}")
    doc = [x for x in steps[4]["sections"] if x["file"] == "Documentation/networking/devmem.rst"]
    if not doc or doc[0]["role"] != "not compiled" or doc[0]["applied"]:
        sys.exit(f"the auto-size patch's Documentation hunk is not listed as not compiled: {steps[4]['sections']}")
    if mode != "range":
        dm = [x for x in steps[4]["sections"] if x["file"] == "net/core/devmem.c"][0]
        if len(dm["applied_hunks"]) != 3 or not all(h["at"] for h in dm["applied_hunks"]):
            sys.exit(f"the auto-size patch's devmem.c hunks are not reported one by one: {dm}")
else:
    third = {"no-truesize": "net: devmem: size TX niovs from the dmabuf's sg table",
             "slip3": "net: devmem: cap TX frags at the device's netmem frag size"}[mode]
    want = {"no-truesize": "rules violate tcp.truesize_covers_bytes", "slip3": "difference "}[mode]
    fb = v["first_bad"]
    if rc != 1 or not fb:
        sys.exit(f"expected exit 1 with a first bad patch, got exit {rc}")
    print(f'first bad: step {fb["step"]} ({fb["subject"]}): {fb["finding"]}\n  replay: {fb["replay"]}')
    if fb["step"] != 3 or fb["subject"] != third:
        sys.exit(f"the first bad patch is step {fb['step']} ({fb['subject']}), not 3 ({third})")
    if want not in fb["finding"]:
        sys.exit(f"the first bad patch's finding is {fb['finding']}, not {want}...")
    for s in steps[:3]:
        engines_ok(s)
        if s["new"] or s["carried"]:
            sys.exit(f'step {s["step"]}, before the first bad patch, has findings')
    new = steps[3]["new"]
    named = [f for f in new if f["key"] == fb["finding"]]
    if not named or not named[0]["replay"] or not named[0]["replay_reproduces"]:
        sys.exit(f"the first bad patch's finding has no replay that reproduces it: {named}")
    if "--impl " + steps[3]["plugin"] not in fb["replay"]:
        sys.exit(f"the replay does not run the third step's plugin {steps[3]['plugin']}: {fb['replay']}")
    if mode == "no-truesize" and steps[3]["rules_label"] != "tx-autosize + truesize=page":
        sys.exit(f"the auto-size step's rules are {steps[3]['rules_label']}")
    if mode == "slip3" and (not steps[4]["carried"] or steps[4]["new"] and
                            any(f["key"] == fb["finding"] for f in steps[4]["new"])):
        sys.exit("the slip's finding is not carried by the fourth step")
EOF
}

case $mode in
files)
	run "$base" "$series"/000*.patch "${budget[@]}"
	judge || exit 1 ;;
mbox)
	# As b4 am writes one: the cover letter first, a reply last.
	{
		printf 'From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 0/4] net: devmem: TX niovs sized from the sg table\n\n'
		printf 'The fixture series.\n\n'
		for f in "$series"/000*.patch; do cat "$f"; echo; done
		# A review suggesting a change as a diff: a reply, not a patch of the series.
		printf 'From git@z Thu Jan  1 00:00:00 1970\nSubject: Re: [PATCH 4/4] net: devmem: size TX niovs from the dmabuf'"'"'s sg table\n\n'
		printf 'Say it this way?\n\n--- a/net/core/devmem.c\n+++ b/net/core/devmem.c\n@@ -146,1 +146,1 @@\n'
		printf -- '-/* Is every DMA segment a whole number of @size-byte blocks, at a multiple of @size? */\n'
		printf -- '+/* Does every DMA segment start and end on a multiple of @size? */\n'
	} >"$work/series.mbox"
	run "$base" --mbox "$work/series.mbox" --engines replay,props "${budget[@]}"
	judge || exit 1 ;;
range)
	make_repo
	before=$(repo_state "$work/repo")
	run "$work/repo" --range base..work --engines replay,props "${budget[@]}"
	judge || exit 1
	[ "$(repo_state "$work/repo")" = "$before" ] || fail "the repository changed" ;;
no-truesize)
	run "$base" $(p 2) $(p 3) $(p 4) "${budget[@]}"
	judge || exit 1 ;;
slip3)
	sed 's/^+\t\ttake = min_t(size_t, take, binding->tx_max_frag_size);/+\t\ttake = min_t(size_t, room, binding->tx_max_frag_size);/' \
		"$(p 3)" >"$work/0003-slip.patch"
	cmp -s "$(p 3)" "$work/0003-slip.patch" && fail "the slip changed nothing in 0003"
	run "$base" $(p 1) $(p 2) "$work/0003-slip.patch" $(p 4) "${budget[@]}"
	judge || exit 1 ;;
ktap)
	tarball=/usr/src/linux-source-6.12.tar.xz
	[ -r "$tarball" ] || fail "$tarball missing (apt-get install linux-source-6.12)"
	tar -xJf "$tarball" -C "$work" --wildcards 'linux-source-6.12/tools/testing/kunit/*.py' || fail "no kunit.py in $tarball"
	quick=(--engines replay,props --cases 100 --no-build-fuzz)
	"$niovcheck" kernel series "$base" $(p 2) $(p 3) $(p 4) "${quick[@]}" --work-dir "$work/run-tap" --tap \
		>"$work/series.tap" 2>"$work/err"
	rc=$?
	[ "$rc" = 1 ] || fail "--tap: exit $rc, not 1"
	run "$base" $(p 2) $(p 3) $(p 4) "${quick[@]}" --work-dir "$work/run" --json
	head -1 "$work/series.tap" | grep -qx 'KTAP version 1' || fail "not KTAP: $(head -1 "$work/series.tap")"
	parsed=$(python3 "$work/linux-source-6.12/tools/testing/kunit/kunit.py" parse "$work/series.tap" 2>&1 |
		sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests*: *//p')
	want=$(python3 -c '
import json, sys
n = {"passed": 0, "failed": 0, "skipped": 0}
for s in json.load(open(sys.argv[1]))["steps"]:
    for e in s["engines"]:
        n["failed" if e["mark"] == "new" else "skipped" if e["mark"] == "not run" else "passed"] += 1
print(", ".join(f"{k}: {n[k]}" for k in ("passed", "failed", "skipped") if n[k]))' "$work/out")
	echo "kunit.py: $parsed; the verdict: $want"
	[ -n "$parsed" ] && [ "$parsed" = "$want" ] || fail "kunit.py counts '$parsed', the verdict '$want'"
	[[ "$want" == *failed* ]] || fail "no failure counted"
	grep -c '^not ok ' "$work/series.tap" | grep -qx 1 || fail "not one failing step"
	grep -q "^not ok 4 patch 3: net: devmem: size TX niovs" "$work/series.tap" || fail "the auto-size step is not the 'not ok' one"
	grep -B3 '^not ok 4 ' "$work/series.tap" | grep -q '^# new finding: rules violate tcp.truesize_covers_bytes' ||
		fail "no finding as a diagnostic line before the 'not ok'" ;;
bad-apply)
	run "$base" $(p 1) $(p 1) "${budget[@]}"
	bad_input "0001-.*: net/core/datagram.c: hunk #1 (@@ -24,7 +24,7 @@.*) does not apply" ;;
bad-merge)
	make_repo
	git -C "$work/repo" checkout -q -b side base && echo side >"$work/repo/side.txt" && git -C "$work/repo" add side.txt &&
		git -C "$work/repo" commit -qm side && git -C "$work/repo" checkout -q work &&
		git -C "$work/repo" merge -q --no-edit side || fail "cannot make the merge"
	before=$(repo_state "$work/repo")
	run "$work/repo" --range base..work "${budget[@]}"
	bad_input "is a merge"
	[ "$(repo_state "$work/repo")" = "$before" ] || fail "the repository changed" ;;
bad-mbox)
	printf 'From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 0/2] a cover letter\n\nNo diff here.\n\nFrom git@z Thu Jan  1 00:00:00 1970\nSubject: Re: [PATCH 0/2] a cover letter\n\nNor here.\n' \
		>"$work/empty.mbox"
	run "$base" --mbox "$work/empty.mbox" "${budget[@]}"
	bad_input "no patch in it" ;;
bad-nocompiled)
	doc=Documentation/networking/devmem.rst
	sed 's/one page of the dmabuf/one page of the dmabuf (a 4 KiB page on x86)/' "$base/$doc" >"$work/devmem.rst"
	diff -u --label "a/$doc" --label "b/$doc" "$base/$doc" "$work/devmem.rst" >"$work/doc-only.patch"
	[ -s "$work/doc-only.patch" ] || fail "the doc-only patch is empty"
	run "$base" "$work/doc-only.patch" "${budget[@]}"
	bad_input "no patch touches a file kernel mode compiles or reads" ;;
*) echo "series_test.sh: unknown mode $mode" >&2; exit 2 ;;
esac
[ "$(snapshot "$base")" = "$base_before" ] || fail "the base tree $base changed"
exit 0
