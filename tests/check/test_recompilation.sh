#!/bin/sh
# test_recompilation.sh - rule recompilation (a folder rule, issue 47) on
# the real dump folders of corpora/xla/recompile.py: one program jitted
# several times in one process with one thing changed (batch, dtype, weak
# scalar, sharding, static argument, donation, memory kind, device count, a
# lambda made again, a closed-over layer count).  Each folder gives
# one finding naming what changed (JSON "change"), with the number of
# compiles; two different functions both named jit_f give none; a module
# given as a file, not a folder, is never compared; the later compiles are
# SARIF related locations; -j 2 prints what -j 1 prints.  diff of two
# folders reports a recompilation NEW has and OLD had not as a regression
# (exit 1), one gone as such (exit 0).
. tests/lib.sh
R=corpora/xla/out/recompile

one() {  # one CASE CHANGE COMPILES: the folder's one finding
	case=$1 want=$2 n=$3
	"$HLOLINT" check --no-config --select recompilation --format json "$R/$case/tpu-v5e" >"$tmp/o.json" 2>"$tmp/e"
	rc=$?
	[ $rc = 1 ] || fail "$case: exit $rc, want 1 ($(head -c 200 "$tmp/e"))"
	got=$(sed -n 's/^ *"change": "\([a-z-]*\)",*$/\1/p' "$tmp/o.json" | tr '\n' ' ')
	[ "$got" = "$want " ] || fail "$case: change '$got', want '$want'"
	got=$(sed -n 's/^ *"compiles": \([0-9]*\),*$/\1/p' "$tmp/o.json" | tr '\n' ' ')
	[ "$got" = "$n " ] || fail "$case: compiles '$got', want '$n'"
}
one batch shape 3
one dtype dtype 2
one weak output 2
one sharding sharding 2
one static constants 2
one donation donation 2
one memkind memory-space 2
one devices devices 2
one lambda identical 2
one closure program 2

# The batch folder's text: which argument, which dimension, the values.
"$HLOLINT" check --no-config --select recompilation "$R/batch/tpu-v5e" >"$tmp/t" 2>&1
grep -q "jit_train_step compiled 3 times: argument 'x' dimension 0 changes \[recompilation\]" "$tmp/t" ||
	fail "batch: headline missing: $(head -c 300 "$tmp/t")"
grep -q "dimension 0 = 512, 1024, 2048 per device" "$tmp/t" || fail "batch: the sizes seen are missing"
"$HLOLINT" check --no-config --select recompilation "$R/static/tpu-v5e" >"$tmp/t" 2>&1
grep -q "constant %constant.2.clone.1 is 0.01, then 0.02" "$tmp/t" || fail "static: the constant is not named"
"$HLOLINT" check --no-config --select recompilation "$R/devices/tpu-v5e" >"$tmp/t" 2>&1
grep -q "partitions x replicas: 8 x 1 then 4 x 1" "$tmp/t" || fail "devices: counts not listed: $(head -c 300 "$tmp/t")"

# A pytree path with quotes and the Python line of the argument's
# metadata; two changes at once, the second listed too (tests/dumps/
# recompile-source: hand-written, x's batch 8 then 16, s f32 then bf16).
"$HLOLINT" check --no-config --select recompilation tests/dumps/recompile-source >"$tmp/t" 2>&1
grep -q "argument batch\['x'\] dimension 0 changes" "$tmp/t" || fail "source: headline: $(head -c 300 "$tmp/t")"
grep -q "(parameter 0, from /work/proj/train.py:41) has dimension 0 = 8, 16" "$tmp/t" ||
	fail "source: no Python line of the argument"
"$HLOLINT" check --no-config -v --select recompilation tests/dumps/recompile-source >"$tmp/t" 2>&1
grep -q "also: argument state\['scale'\] (parameter 2, from /work/proj/train.py:42) is f32\[4\] then" "$tmp/t" ||
	fail "source: the second change is not listed: $(cat "$tmp/t")"
"$HLOLINT" check --no-config --format json --select recompilation tests/dumps/recompile-source >"$tmp/t" 2>&1
grep -q '"changes": "shape,dtype"' "$tmp/t" || fail "source: JSON changes is not shape,dtype"

# Two functions named f: not a recompilation.
"$HLOLINT" check --no-config --select recompilation "$R/samename/tpu-v5e" >"$tmp/t" 2>&1
rc=$?
[ $rc = 0 ] || fail "samename: exit $rc, want 0: $(head -c 300 "$tmp/t")"
grep -q "in 2 modules" "$tmp/t" || fail "samename: both modules not read: $(tail -1 "$tmp/t")"

# Files, not a folder: each module alone.
"$HLOLINT" check --no-config --select recompilation "$R"/batch/tpu-v5e/*.after_optimizations.txt >"$tmp/t" 2>&1
rc=$?
[ $rc = 0 ] || fail "batch as files: exit $rc, want 0"

# SARIF: the first compile is the location, the later ones related.
"$HLOLINT" check --no-config --select recompilation --format sarif "$R/batch/tpu-v5e" >"$tmp/s" 2>&1
[ "$(grep -c '"text": "compile [23] of 3"' "$tmp/s")" = 2 ] || fail "sarif: no related location per later compile"

# -j: the folder's finding once, after its modules, the same text.
"$HLOLINT" check --no-config -j 1 "$R/batch/tpu-v5e" "$R/dtype/tpu-v5e" >"$tmp/j1" 2>&1
"$HLOLINT" check --no-config -j 2 "$R/batch/tpu-v5e" "$R/dtype/tpu-v5e" >"$tmp/j2" 2>&1
cmp -s "$tmp/j1" "$tmp/j2" || fail "-j 2 prints otherwise than -j 1"
[ "$(grep -c '\[recompilation\]' "$tmp/j2")" = 2 ] || fail "-j 2: not one finding per folder"
# diff: OLD holds the first compile only.
mkdir -p "$tmp/old"
cp "$R"/batch/tpu-v5e/module_0000.* "$tmp/old/"
"$HLOLINT" diff --no-config "$tmp/old" "$R/batch/tpu-v5e" >"$tmp/d" 2>&1
rc=$?
[ $rc = 1 ] || fail "diff: a new recompilation exits $rc, want 1"
grep -q "warning: new recompilation (1 compile before) \[recompilation\]" "$tmp/d" || fail "diff: no regression line"
"$HLOLINT" diff --no-config -j 2 "$tmp/old" "$R/batch/tpu-v5e" >"$tmp/d2" 2>&1
cmp -s "$tmp/d" "$tmp/d2" || fail "diff -j 2 prints otherwise than -j 1"
"$HLOLINT" diff --no-config --format json "$tmp/old" "$R/batch/tpu-v5e" >"$tmp/dj" 2>&1
grep -q '"status": "new"' "$tmp/dj" && grep -q '"before": 1' "$tmp/dj" || fail "diff json: no recompilations entry"
"$HLOLINT" diff --no-config "$R/batch/tpu-v5e" "$tmp/old" >"$tmp/d" 2>&1
rc=$?
[ $rc = 0 ] || fail "diff: a recompilation gone exits $rc, want 0"
grep -q "recompilation gone: jit_train_step compiled 3 times before" "$tmp/d" || fail "diff: no 'gone' line"
"$HLOLINT" diff --no-config "$R/batch/tpu-v5e" "$R/batch/tpu-v5e" >"$tmp/d" 2>&1
rc=$?
[ $rc = 0 ] || fail "diff of a folder with itself exits $rc"
! grep -q recompilation "$tmp/d" || fail "diff of a folder with itself reports a recompilation"
exit $st
