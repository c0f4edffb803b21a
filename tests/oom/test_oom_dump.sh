#!/bin/sh
# test_oom_dump.sh - `hlolint oom` on a whole --xla_dump_to folder of a
# compile that ran out of memory (tests/dumps/tpu-v5e-oom, written by
# make_tpu_v5e_oom.py, unedited): libtpu's one-line message lists no
# allocation, so XLA's own buffer assignment in the folder must stand in
# (said so), mapped to instructions with the arguments' pytree names, and
# the class must come from the numbers: the arguments alone exceed HBM.
. tests/lib.sh
d=tests/dumps/tpu-v5e-oom
"$HLOLINT" oom --no-config --format json "$d/error.txt" "$d" >"$tmp/j" 2>"$tmp/e"
rc=$?
[ "$rc" = 1 ] || { fail "json: exit $rc"; cat "$tmp/e"; }
grep -q '"class": "arguments"' "$tmp/j" || fail "class is not arguments"
grep -q '"allocations_from": "xla-buffer-assignment"' "$tmp/j" || fail "XLA's buffer assignment did not stand in"
[ "$(grep -c '"found_by": "XLA' "$tmp/j")" -ge 3 ] || fail "fewer than 3 of XLA's allocations found in the module"
grep -q '"path": "tests/dumps/tpu-v5e-oom/module_0000.*after_optimizations.txt"' "$tmp/j" ||
	fail "not the after-optimizations module (oom_intermediate_module.txt and the rest are sidecars)"
"$HLOLINT" oom --no-config "$d/error.txt" "$d" >"$tmp/t" 2>"$tmp/e"
rc=$?
[ "$rc" = 1 ] || fail "text: exit $rc"
grep -q "below are the largest of XLA's own buffer assignment" "$tmp/t" || fail "text does not say where the list is from"
grep -q "note: argument [0-9]*: [pmv]$" "$tmp/t" || fail "no argument name (pytree path) printed"
grep -q "^note: arguments: the arguments alone take 18.00G of the 15.75G limit" "$tmp/t" || fail "first line is not the arguments fact"
exit $st
