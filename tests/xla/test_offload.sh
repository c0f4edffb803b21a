#!/bin/sh
# test_offload.sh - offload-candidate against the compiler: for each lever
# of corpora/xla/programs/offload_levers.py and each TPU target, the rule's
# predicted saving on the device twin's compiled module against XLA's own
# difference between the twins (memory_analysis: arguments + outputs -
# aliased + temporaries, device memory), and silence on the offloaded twin.
# A lever's prediction must be within 10% of XLA's difference when XLA
# saves memory, and nothing when XLA does not (the levers are small next to
# a chip: --offload-min-fraction 0 judges the estimate, not the policy);
# known misses are in
# tests/xla/known_misses.txt.  Prints the table of docs/rules/offload-candidate.md.
. tests/lib.sh
X=corpora/xla
[ -f "$X/MANIFEST.tsv" ] || { echo "no $X/MANIFEST.tsv"; exit 1; }
# lever: case stem, and what marks its buffer in a finding (the parameter's
# op_name, or the buffer kind for values the program computes).
levers='early "op_name": "w",
param "op_name": "w",
opt "op_name": "[mv]",
out "buffer_kind": "output"
act "buffer_kind": "(activation|temporary)"
temp "buffer_kind": "(activation|temporary)"'
# Device memory per MANIFEST row: program case target total.
awk -F'\t' 'NR > 1 && $1 == "offload_levers" && $5 == "ok" && $3 ~ /^tpu-/ {
	printf "%s %s %.0f %s\n", $2, $3, $7 + $8 - $9 + $10, $6 }' "$X/MANIFEST.tsv" >"$tmp/rows"
[ -s "$tmp/rows" ] || { fail "no offload_levers rows in $X/MANIFEST.tsv"; exit 1; }
# findings FILE TARGET: one line per offload-candidate finding, its JSON joined.
findings() {
	"$HLOLINT" check --no-config --format json --target "$2" --select offload-candidate --offload-min-fraction 0 \
		"$1" >"$tmp/j" 2>"$tmp/err"
	rc=$?
	[ "$rc" -le 1 ] || { fail "$1: check exited $rc: $(head -n 1 "$tmp/err")"; return 1; }
	awk '/^  "findings": \[/ { f = 1; next } f && /^  \]/ { f = 0 } f && /^    \{/ { b = ""; next }
		f && /^    \}/ { print b; next } f { b = b $0 }' "$tmp/j"
}
mib() { awk -v b="$1" 'BEGIN { v = b / 1048576; printf "%.0f MiB", (v > -0.5 && v < 0.5) ? 0 : v }'; }
printf '%-24s %-8s %12s %12s  %s\n' "lever (device twin)" target predicted "XLA saves" verdict
printf '%s\n' "$levers" >"$tmp/levers"
while IFS=' ' read -r lever mark; do
	grep "^${lever}_device " "$tmp/rows" >"$tmp/cases"
	while read -r case target dev dir; do
		off=$(awk -v c="${lever}_offloaded" -v t="$target" '$1 == c && $2 == t { print $3 }' "$tmp/rows")
		odir=$(awk -v c="${lever}_offloaded" -v t="$target" '$1 == c && $2 == t { print $4 }' "$tmp/rows")
		[ -n "$off" ] || { fail "$lever/$target: no offloaded twin"; continue; }
		findings "$X/$dir/compiled.hlo.gz" "$target" >"$tmp/dev" || continue
		findings "$X/$odir/compiled.hlo.gz" "$target" >"$tmp/off" || continue
		pred=$(grep -E -- "$mark" "$tmp/dev" | sed -n 's/.*"bytes_saved": \([0-9]*\).*/\1/p' |
			awk '{ s += $1 } END { printf "%.0f", s }')
		xla=$(awk -v a="$dev" -v b="$off" 'BEGIN { printf "%.0f", a - b }')
		verdict=$(awk -v p="$pred" -v x="$xla" 'BEGIN {
			if (x > 0 && p > 0 && p - x <= x / 10 && x - p <= x / 10) print "ok: within 10%"
			else if (x <= 0 && p == 0) print "ok: silent, XLA saves nothing"
			else print "MISS" }')
		if grep -qE -- "$mark" "$tmp/off"; then
			fail "$lever/$target: offload-candidate reports the offloaded twin's buffer"
		fi
		if [ "$verdict" = MISS ]; then
			if grep -q "^offload_levers/${lever}/$target offload-candidate:" tests/xla/known_misses.txt; then
				verdict="XFAIL (tests/xla/known_misses.txt)"
			else
				fail "$lever/$target: predicted $(mib "$pred"), XLA's twins differ by $(mib "$xla")"
			fi
		elif grep -q "^offload_levers/${lever}/$target offload-candidate:" tests/xla/known_misses.txt; then
			fail "$lever/$target: XPASS: remove it from tests/xla/known_misses.txt"
		fi
		printf '%-24s %-8s %12s %12s  %s\n' "offload_levers/${lever}" "$target" "$(mib "$pred")" "$(mib "$xla")" \
			"$verdict"
	done <"$tmp/cases"
done <"$tmp/levers"
exit $st
