#!/bin/sh
# test_diff_small.sh - diff's text counts the buffer changes under both
# thresholds (--min-change-bytes, 1M; --min-change-fraction, 1% of the
# total) in one line instead of one diagnostic each (issue 46): on two
# compiles of corpora/xla's debug_print program (16M in all, so the limit
# is 1% of it), the 512-byte constants and scalars are counted, the 2M and
# 8M buffers shown; every change is still in JSON; --min-change-bytes 0
# shows each.
. tests/lib.sh
d=corpora/xla/out/debug_print
o=$d/clean/tpu-v5e/after_optimizations.hlo.gz
n=$d/print_in_scan/tpu-v5e/after_optimizations.hlo.gz
"$HLOLINT" diff --no-config "$o" "$n" >"$tmp/text"
total=$(sed -n 's/^hlolint diff: .*, \([0-9]*\) buffer changes,.*/\1/p' "$tmp/text")
shown=$(grep -c -E ': (warning|note): (new buffer|no longer allocated|grew|shrank|lost|now sharded|left|moved).*\[diff\]$' "$tmp/text")
small=$(sed -n 's/^  and \([0-9]*\) smaller changes (each under 164.2K): .*/\1/p' "$tmp/text")
[ -n "$total" ] && [ -n "$small" ] && [ "$small" -gt 0 ] || fail "no line counting the small changes: $(grep -c . "$tmp/text") lines"
[ $((shown + small)) = "$total" ] || fail "$shown shown + $small counted != $total changes"
grep -E ': (new buffer|no longer allocated): [0-9.]+[BK] ' "$tmp/text" && fail "a change under the limit is shown"
"$HLOLINT" diff --no-config --format json "$o" "$n" >"$tmp/json"
[ "$(grep -c '"kind": "\(new\|gone\|grown\|shrunk\)' "$tmp/json")" -ge "$total" ] ||
	fail "JSON lists fewer changes than $total"
"$HLOLINT" diff --no-config --min-change-bytes 0 "$o" "$n" >"$tmp/all"
[ "$(grep -c -E ': (warning|note): (new buffer|no longer allocated|grew|shrank).*\[diff\]$' "$tmp/all")" = "$total" ] ||
	fail "--min-change-bytes 0 does not show all $total changes"
grep -q 'smaller change' "$tmp/all" && fail "--min-change-bytes 0 still counts some"
exit $st
