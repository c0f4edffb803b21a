#!/bin/sh
# test_oom_corpus.sh - `hlolint oom` on the compiler's own messages: every
# program of corpora/xla whose compile ran out of memory (its error.txt)
# against its dump folder.  Each must be read as XLA:TPU's short form, exit
# 1, choose the folder's after-optimizations module, put hlolint's estimate
# within 1% of XLA's figure, and point at buffers by instruction (the
# report lists none, so hlolint's largest ones stand in).
. tests/lib.sh
n=0
for err in corpora/xla/out/*/*/*/error.txt; do
	[ -f "$err" ] || continue
	grep -q "Ran out of memory" "$err" || continue
	dir=$(dirname "$err")
	n=$((n + 1))
	"$HLOLINT" oom --no-config --format json "$err" "$dir" >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != 1 ]; then
		fail "$dir: exit $rc, expected 1"
		head -n 3 "$tmp/err"
		continue
	fi
	kind=$(sed -n 's/^ *"kind": "\(.*\)",$/\1/p' "$tmp/out.json" | head -n 1)
	xla=$(sed -n 's/^ *"program_bytes": \([0-9]*\),$/\1/p' "$tmp/out.json" | head -n 1)
	est=$(sed -n 's/^ *"estimate_bytes": \([0-9]*\),$/\1/p' "$tmp/out.json" | head -n 1)
	found=$(grep -c '"found_by": "hlolint' "$tmp/out.json")
	[ "$kind" = tpu-temp ] || fail "$dir: kind '$kind', expected tpu-temp"
	grep -q '"path": ".*after_optimizations' "$tmp/out.json" || fail "$dir: did not choose the after-optimizations module"
	if [ -z "$xla" ] || [ -z "$est" ]; then
		fail "$dir: no XLA figure or no estimate in the JSON"
		continue
	fi
	awk -v x="$xla" -v e="$est" 'BEGIN { d = (e - x) / x; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
		fail "$dir: estimate $est is not within 1% of XLA's $xla"
	[ "$found" -ge 1 ] || fail "$dir: no buffer pointed at"
	echo "$dir: XLA $xla, hlolint $est, $found buffers pointed at"
done
[ "$n" -ge 1 ] || fail "no out-of-memory compile in corpora/xla/out"
exit $st
