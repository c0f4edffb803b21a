#!/bin/sh
# test_diff.sh - `hlolint diff` on pairs of real compiles from corpora/xla
# (tpu-v5e): a table that lost its sharding, optimizer state that left host
# memory, a parameter that became donated; a module against itself and
# against a copy whose instruction names all changed (nothing to report);
# usage errors.
. tests/lib.sh
x=corpora/xla/out
run() { # NAME WANT-EXIT ARGS...: runs diff, output in $tmp/NAME
	_n=$1 _want=$2
	shift 2
	"$HLOLINT" diff "$@" >"$tmp/$_n" 2>"$tmp/$_n.err"
	_rc=$?
	[ "$_rc" = "$_want" ] || { fail "$_n: exit $_rc, expected $_want"; head -n 5 "$tmp/$_n.err"; }
}
has() { grep -q -- "$2" "$tmp/$1" || fail "$1: no '$2' in the output"; }

run sharding 1 --no-config --fail-on-growth 5% $x/replicated/sharded/tpu-v5e $x/replicated/replicated/tpu-v5e
has sharding 'lost its sharding: f32\[524288,1024\]'
has sharding 'grew 256.00M -> 2.00G'
has sharding 'total allocation 257.02M -> 2.00G'
has sharding 'new finding:'
has sharding '\[replicated-oversized\]'
run sharding-json 1 --no-config --format json $x/replicated/sharded/tpu-v5e $x/replicated/replicated/tpu-v5e
has sharding-json '"kind": "lost-sharding"'
has sharding-json '"growth_failed": false'

run offload 0 --no-config --exit-zero $x/host_offload/opt_offload/tpu-v5e $x/host_offload/opt_device/tpu-v5e
[ "$(grep -c 'left host memory' "$tmp/offload")" = 2 ] || fail "offload: expected 2 arrays that left host memory"
has offload 'total allocation 336.00M -> 272.00M'

run donation 0 --no-config $x/donation/no_donation/tpu-v5e $x/donation/donated/tpu-v5e
has donation 'donation: 0 -> 1 outputs alias a parameter'
has donation 'gone:'
has donation '\[missed-donation\]'

m=$x/gpt/small/tpu-v5e/after_optimizations.hlo.gz
run self 0 --no-config --fail-on-growth 0% "$m" "$m"
has self '1 module compared, 0 buffer changes, 0 new findings, 0 gone'
# Every instruction renamed, as a recompile does: buffers and findings
# still match (by op_name), so nothing changed.
gzip -dc "$m" | sed 's/%\([a-z_-]*\)\.\([0-9]\)/%\1_r.\2/g' >"$tmp/renamed.hlo"
"$HLOLINT" parse "$tmp/renamed.hlo" || fail "the renamed copy does not parse"
run renamed 0 --no-config --fail-on-growth 0% "$m" "$tmp/renamed.hlo"
has renamed '0 buffer changes, 0 new findings, 0 gone'

run usage 2 "$m"
run bad-growth 2 --fail-on-growth lots "$m" "$m"
has bad-growth.err 'expects a percentage'
exit $st
