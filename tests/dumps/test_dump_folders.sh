#!/bin/sh
# test_dump_folders.sh - an --xla_dump_to folder as input.  Built in $tmp
# from corpora/xla (gpt/small on cpu and tpu-v5e) with XLA's file names:
#  - every command reads the after-optimizations module and skips the
#    before-optimizations one (unless --all-stages) and the sidecars;
#  - of two dumps of one module id, the newer is read;
#  - mem prints "XLA said" from the buffer assignment beside the module,
#    check's JSON carries xla_total_bytes, and hbm-over-budget judges with
#    XLA's figure;
#  - a folder without modules, and a folder of several for annotate, are
#    errors (exit 2) that say so.
. tests/lib.sh
x=corpora/xla/out/gpt/small
d=$tmp/dump
mkdir -p "$d"
gzip -dc $x/tpu-v5e/after_optimizations.hlo.gz >"$d/module_0007.jit_step.tpu_after_optimizations.txt"
gzip -dc $x/tpu-v5e/buffer-assignment.txt.gz \
	>"$d/module_0007.jit_step.tpu_after_optimizations-buffer-assignment.txt"
gzip -dc $x/tpu-v5e/memory-usage-report.txt.gz \
	>"$d/module_0007.jit_step.tpu_after_optimizations-memory-usage-report.txt"
printf 'HloModule broken_before\n' >"$d/module_0007.jit_step.before_optimizations.txt"
# An older dump of another module id, then a newer one of it.
gzip -dc $x/cpu/after_optimizations.hlo.gz >"$d/module_0009.jit_step.cpu_after_optimizations.txt"
touch -d '2020-01-01' "$d/module_0009.jit_step.cpu_after_optimizations.txt"
gzip -dc $x/cpu/after_optimizations.hlo.gz | sed 's/^HloModule jit_step/HloModule jit_step_newer/' \
	>"$d/module_0009.jit_step.after_optimizations.txt"

"$HLOLINT" parse "$d" 2>"$tmp/err" || { fail "parse on the folder: exit $?"; cat "$tmp/err"; }
"$HLOLINT" parse --all-stages "$d" 2>"$tmp/err"
[ $? = 2 ] || fail "parse --all-stages did not read the before-optimizations module"
grep -q "before_optimizations.txt:1:" "$tmp/err" || fail "no error located in the before-optimizations module"

"$HLOLINT" mem "$d" >"$tmp/mem" 2>"$tmp/err" || { fail "mem on the folder: exit $?"; cat "$tmp/err"; }
n=$(grep -c '^hlolint memory estimate' "$tmp/mem")
[ "$n" = 2 ] || fail "mem read $n modules, expected 2 (one per module id)"
grep -q 'module jit_step_newer' "$tmp/mem" || fail "the newer dump of module 0009 was not the one read"
grep -q 'XLA said: ' "$tmp/mem" || fail "mem did not print XLA's figure from the buffer assignment"

"$HLOLINT" check --no-config --format json "$d" >"$tmp/check.json" 2>"$tmp/err"
rc=$?
[ $rc -le 1 ] || { fail "check on the folder: exit $rc"; cat "$tmp/err"; }
grep -q '"xla_total_bytes": [1-9]' "$tmp/check.json" || fail "check's JSON has no xla_total_bytes"

"$HLOLINT" check --no-config --hbm 1G --select hbm-over-budget \
	"$d/module_0007.jit_step.tpu_after_optimizations.txt" >"$tmp/hb" 2>&1
[ $? = 1 ] || fail "hbm-over-budget did not fire at 1G"
grep -q "XLA's memory .* exceeds" "$tmp/hb" || fail "hbm-over-budget did not judge with XLA's figure"

mkdir -p "$tmp/empty"
"$HLOLINT" check "$tmp/empty" 2>"$tmp/err"
[ $? = 2 ] || fail "an empty folder did not exit 2"
grep -q 'no module in this folder' "$tmp/err" || fail "an empty folder's error does not say so"
"$HLOLINT" annotate --no-config "$d" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "annotate on a folder of two modules did not exit 2"
grep -q 'holds 2 modules' "$tmp/err" || fail "annotate's error does not say how many modules"
exit $st
