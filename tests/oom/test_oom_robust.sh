#!/bin/sh
# test_oom_robust.sh - oom on pastes built to hit its readers' worst cases
# (long runs of digits before ". Size: ", a 2 MB line of keys a converter
# might have joined, a wrapped phrase at every line, no final newline):
# each must be read or refused cleanly (exit 1 or 2, never a crash) in
# linear time (run.sh's time limit catches a quadratic one).
. tests/lib.sh
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "1"; print ". Size: 2.00G" }' >"$tmp/digits.log"
awk 'BEGIN { printf "Ran out of memory in memory space hbm. Used 2G of 1G hbm. "
	for (i = 0; i < 40000; i++) printf "%d. Size: 1.00M Shape: f32[8,128] XLA label: %%f.%d = f32[8,128] fusion() Allocation type: HLO temp ========== ", i, i
	print "" }' >"$tmp/joined.log"
awk 'BEGIN { for (i = 0; i < 50000; i++) { print "Execution failed: Resource exhausted: Out"; print "of memory while trying to allocate " i " bytes." } }' >"$tmp/wrapped.log"
printf 'Error allocating device buffer: Attempting to allocate 8.00M. That was not possible. There are' >"$tmp/nonl.log"
for f in digits joined wrapped nonl; do
	"$HLOLINT" oom --no-config --format json "$tmp/$f.log" >"$tmp/$f.json" 2>"$tmp/$f.err"
	rc=$?
	case $rc in 1 | 2) ;; *) fail "$f: exit $rc" ;; esac
done
grep -q '"rank": 39999' "$tmp/joined.json" || fail "joined: the 40000 entries of one line are not all read"
[ "$(grep -c '"kind": "gpu"' "$tmp/wrapped.json")" = 50000 ] || fail "wrapped: not 50000 reports"
grep -q '"kind": "tpu-buffer"' "$tmp/nonl.json" || fail "nonl: the last line without a newline is not read"
exit $st
