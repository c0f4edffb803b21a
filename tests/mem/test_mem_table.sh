#!/bin/sh
# test_mem_table.sh - mem's largest allocations are a table (issue 46): one
# row each (size, shape per device, kind or memory space, live range,
# Python line, instruction) under one header, --top N rows, every line of
# the text within 100 columns; --verbose gives each its block of fields.
. tests/lib.sh
for f in corpora/xla/out/llama/fit/tpu-v5e/after_optimizations.hlo.gz \
	corpora/xla/out/moe/fit/tpu-v5e/after_optimizations.hlo.gz tests/mem/size_default_v5e.hlo; do
	[ -f "$f" ] || continue
	"$HLOLINT" mem --no-config --target tpu-v5e --top 7 "$f" >"$tmp/t" || fail "$f: exit $?"
	awk 'length > 100 { print; bad = 1 } END { exit bad }' "$tmp/t" >"$tmp/long" ||
		fail "$f: lines over 100 columns: $(head -n 2 "$tmp/long")"
	sed -n '/^Largest allocations/,$p' "$tmp/t" >"$tmp/rows"
	grep -q '^      size  shape per device  *kind or space  live  *source  *instruction$' "$tmp/rows" ||
		fail "$f: no table header: $(head -n 3 "$tmp/rows")"
	want=$(sed -n 's/^Largest allocations (\([0-9]*\) of .*/\1/p' "$tmp/rows")
	rows=$(grep -c -E '^ +[0-9.]+[BKMGT]? +[a-z0-9]+\[[0-9,]*\] +[a-z-]+ +([0-9]+-[0-9]+|all) +[^ ]+ +%' "$tmp/rows")
	[ "$rows" = "$want" ] && [ "$want" -le 7 ] && [ "$want" -ge 1 ] || fail "$f: $rows rows for $want allocations"
	grep -q 'Size: ' "$tmp/rows" && fail "$f: blocks without --verbose"
	"$HLOLINT" mem --no-config --target tpu-v5e --top 7 --verbose "$f" >"$tmp/v" || fail "$f --verbose: exit $?"
	[ "$(grep -c '^ *[0-9]*\. Size: ' "$tmp/v")" = "$want" ] || fail "$f --verbose: not $want blocks"
done
exit $st
