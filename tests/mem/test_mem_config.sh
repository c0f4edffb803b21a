#!/bin/sh
# test_mem_config.sh - mem reads the project config as check does: its
# target (said to come from the file), hbm, and errors located in it (exit
# 2); --target on the command line wins; --no-config reads none.
. tests/lib.sh
m=$PWD/corpora/examples/train_step.hlo
case $HLOLINT in /*) bin=$HLOLINT ;; *) bin=$PWD/$HLOLINT ;; esac   # run from another folder
mkdir -p "$tmp/p/sub"
printf 'target = "tpu-v5e"\nhbm = "8G"\n' >"$tmp/p/.hlolint.toml"
(cd "$tmp/p/sub" && "$bin" mem "$m") >"$tmp/out" 2>"$tmp/err" || fail "mem with a config: exit $?"
grep -q "target: *tpu-v5e (from $tmp/p/.hlolint.toml)" "$tmp/out" || fail "target not from the config: $(grep target: "$tmp/out")"
grep -q 'capacity: *8.00G' "$tmp/out" || fail "hbm not from the config: $(grep capacity: "$tmp/out")"
(cd "$tmp/p/sub" && "$bin" mem --target h100 "$m") >"$tmp/out" 2>&1
grep -q 'target: *h100 (given with --target)' "$tmp/out" || fail "--target did not win over the config"
(cd "$tmp/p/sub" && "$bin" mem --no-config "$m") >"$tmp/out" 2>&1
grep -q 'target: *tpu (inferred' "$tmp/out" || fail "--no-config still read the config"
printf 'target = "nope"\n' >"$tmp/bad.toml"
"$HLOLINT" mem --config "$tmp/bad.toml" "$m" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "a bad config did not exit 2"
grep -q "^$tmp/bad.toml:1:10: error: unknown target 'nope'" "$tmp/err" || fail "error not located: $(head -n 1 "$tmp/err")"
[ -s "$tmp/out" ] && fail "output written despite the error"
exit $st
