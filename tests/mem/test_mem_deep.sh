#!/bin/sh
# test_mem_deep.sh - 4 000 nested calls (each level an inline to_apply body)
# and a 200 000-instruction chain: mem keeps its frames on the heap and is
# linear, so both finish in seconds with the right peak.
HLOLINT=${HLOLINT:-build/hlolint}
N=${LEVELS:-4000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-mem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
awk -v n="$N" 'BEGIN {
	printf "%%id {\n  ROOT %%x = f32[] parameter(0)\n}\n\nENTRY %%main {\n  %%p = f32[] parameter(0)\n"
	printf "  ROOT %%r = f32[] call(%%p), to_apply="
	for (i = 0; i < n; i++) printf "{ %%x = f32[] parameter(0) ROOT %%y = f32[] call(%%x), to_apply="
	printf "%%id"
	for (i = 0; i < n; i++) printf "}"
	printf "\n}\n"
}' >"$tmp/nested.hlo"
# A call's result is its callee's root buffer, so the nested results are
# all one f32[] (4 B): the peak is p + that buffer = 8 B at any depth.
timeout 20 "$HLOLINT" mem --format json "$tmp/nested.hlo" >"$tmp/out" 2>"$tmp/err" || {
	echo "FAIL nested calls: exit $?"; head -n 3 "$tmp/err"; exit 1; }
want=8
grep -q "\"peak_bytes\": $want," "$tmp/out" || {
	echo "FAIL nested calls: want peak $want"; grep peak_bytes "$tmp/out"; exit 1; }
awk 'BEGIN {
	print "ENTRY %main {\n  %v0 = f32[16]{0} parameter(0)"
	for (i = 1; i <= 200000; i++) printf "  %%v%d = f32[16]{0} negate(%%v%d)\n", i, i - 1
	print "  ROOT %r = f32[16]{0} negate(%v200000)\n}"
}' >"$tmp/chain.hlo"
# A chain of element-wise ops is written in place, one buffer besides the
# argument (v1 cannot reuse the parameter): 64 + 64 B.
timeout 20 "$HLOLINT" mem --format json "$tmp/chain.hlo" >"$tmp/out" 2>"$tmp/err" || {
	echo "FAIL chain: exit $?"; head -n 3 "$tmp/err"; exit 1; }
grep -q '"peak_bytes": 128,' "$tmp/out" || { echo "FAIL chain: want peak 128"; grep peak_bytes "$tmp/out"; exit 1; }
echo "ok"
