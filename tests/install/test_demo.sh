#!/bin/sh
# suite: long
# test_demo.sh - `make demo` tells the out-of-memory story and its closing
# lines name only what its steps printed (issue 46): the compiler message
# and the allocation oom showed, the rules check reported, what annotate
# --apply wrote into the module, mem's total; every line fits 100 columns.
. tests/lib.sh
# The steps run $HLOLINT (DEMO_BIN): a crashing binary fails the demo.
case $HLOLINT in /*) bin=$HLOLINT ;; *) bin=$PWD/$HLOLINT ;; esac
make -s demo DEMO_BIN="$bin" >"$tmp/demo" 2>&1 || { fail "make demo: exit $?"; tail -n 20 "$tmp/demo"; exit 1; }
sed -n '/^What you just saw/,$p' "$tmp/demo" >"$tmp/story"
[ -s "$tmp/story" ] || fail "no closing lines"
awk 'length > 100 { print; bad = 1 } END { exit bad }' "$tmp/story" >"$tmp/long" ||
	fail "closing lines over 100 columns: $(head -n 2 "$tmp/long")"
msg=$(sed -n '3s/^  \(.*\),$/\1/p' "$tmp/story")
alloc=$(sed -n '5s/^  \(.*\)\.$/\1/p' "$tmp/story")
[ -n "$msg" ] && grep -qF "$msg" build/demo/1-oom.txt || fail "the oom message '$msg' is not what oom printed"
[ -n "$alloc" ] && grep -qF "$alloc" build/demo/1-oom.txt || fail "the allocation '$alloc' is not what oom printed"
for r in $(sed -n '7s/^  \(.*\)\.$/\1/p' "$tmp/story" | tr -d ,); do
	grep -q "\[$r\]\$" build/demo/2-check.txt || fail "check did not report $r"
done
made=$(sed -n 's/^- annotate --apply \(made .*\);$/\1/p' "$tmp/story")
[ -n "$made" ] && grep -qF -- "--apply $made" build/demo/fixed.hlo || fail "annotate's '$made' is not in the module"
total=$(sed -n 's/^- mem on the result: \(.*\)\.$/\1/p' "$tmp/story")
[ -n "$total" ] && grep -qF "$total" build/demo/4-mem.txt || fail "mem's '$total' is not what mem printed"
exit $st
