#!/bin/sh
# test_dump_real.sh - a whole --xla_dump_to folder as libtpu 0.0.42 writes
# it (tests/dumps/tpu-v5e, made by make_tpu_v5e.py; nothing edited):
#  - the module is after_optimizations.txt, not the same module again under
#    after_optimizations_after_buffer_assignment.txt (or _before_), and no
#    other sidecar (live ranges, compile arguments, flags) is read as one;
#  - the chip comes from target_arguments.txt (TPU v5e): capacity known,
#    so check --require-target passes; without that file it fails (exit 1)
#    and the summary line says the capacity is unknown;
#  - XLA's buffer assignment beside it is found ("XLA said").
. tests/lib.sh
d=tests/dumps/tpu-v5e
"$HLOLINT" mem --no-config "$d" >"$tmp/mem" 2>"$tmp/err" || { fail "mem: exit $?"; cat "$tmp/err"; }
sed -n 2p "$tmp/mem" | grep -q '^  file: .*\.after_optimizations\.txt$' || fail "mem read $(sed -n 2p "$tmp/mem")"
grep -q "target: *tpu-v5e (inferred: the dump's target_arguments.txt says TPU_VERSION_VIPERFISH lite)" \
	"$tmp/mem" || fail "target not inferred from target_arguments.txt: $(grep 'target:' "$tmp/mem")"
grep -q 'XLA said: ' "$tmp/mem" || fail "XLA's buffer assignment beside the module was not found"
"$HLOLINT" parse --all-stages "$d" 2>"$tmp/err" || { fail "parse --all-stages: exit $?"; cat "$tmp/err"; }
"$HLOLINT" check --no-config --require-target "$d" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] || { fail "check --require-target with a known chip: exit not 0"; cat "$tmp/out" "$tmp/err"; }
grep -q 'in 1 module$' "$tmp/out" || fail "check did not read exactly one module: $(tail -n 1 "$tmp/out")"
# The same folder without the compile's arguments: the chip is unknown.
mkdir "$tmp/d"
cp "$d"/* "$tmp/d/"
rm "$tmp/d"/*target_arguments.txt
"$HLOLINT" check --no-config --require-target "$tmp/d" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] || fail "check --require-target with the chip unknown: exit not 1"
tail -n 1 "$tmp/out" | grep -q '; capacity unknown$' || fail "summary: $(tail -n 1 "$tmp/out")"
"$HLOLINT" check --no-config "$tmp/d" >/dev/null 2>&1
[ $? = 0 ] || fail "check without --require-target failed on a clean module"
printf 'require-target = true\n' >"$tmp/c.toml"
"$HLOLINT" check --config "$tmp/c.toml" "$tmp/d" >/dev/null 2>&1
[ $? = 1 ] || fail "require-target = true in the config did not fail"
"$HLOLINT" check --no-config --require-target --hbm 16G "$tmp/d" >/dev/null 2>&1
[ $? = 0 ] || fail "--hbm did not make the capacity known"
exit $st
