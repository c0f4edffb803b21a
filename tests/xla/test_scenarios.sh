#!/bin/sh
# test_scenarios.sh - each corpora/xla scenario's rule against the compiled
# TPU modules of that scenario (MANIFEST.tsv "expect": rule -> a text the
# flagged finding must contain (its instruction, shape, op_name or message),
# or null when the rule must stay silent on that control twin).  The rule
# runs alone (--select) with the module's own target; a crash, a parse
# error or a missing or extra finding fails.
. tests/lib.sh
X=corpora/xla
fired=0 silent=0 xfail=0
[ -f "$X/MANIFEST.tsv" ] || { echo "no $X/MANIFEST.tsv"; exit 1; }
awk -F'\t' 'NR > 1 && $5 == "ok" && $3 ~ /^tpu-/ && $18 != "{}" { print $1 "/" $2 "\t" $3 "\t" $6 "\t" $18 }' \
	"$X/MANIFEST.tsv" >"$tmp/rows"
while IFS='	' read -r name target dir expect; do
	# {"rule":"text"} or {"rule":null}, one rule per case.
	rule=$(printf '%s\n' "$expect" | sed -n 's/^{"\([^"]*\)":.*/\1/p')
	want=$(printf '%s\n' "$expect" | sed -n 's/^{"[^"]*":"\(.*\)"}$/\1/p')
	"$HLOLINT" check --no-config --format json --target "$target" --select "$rule" "$X/$dir/compiled.hlo.gz" \
		>"$tmp/j" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -gt 1 ]; then
		fail "$name/$target: check exited $rc: $(head -n 1 "$tmp/err")"
		continue
	fi
	# One line per finding of this rule: its JSON object joined.
	awk -v r="$rule" '/^  "findings": \[/ { in_f = 1; next } in_f && /^  \]/ { in_f = 0 }
		in_f && /^    \{/ { buf = ""; next } in_f && /^    \}/ { if (buf ~ "\"rule\": \"" r "\"") print buf; next }
		in_f { buf = buf $0 }' "$tmp/j" >"$tmp/found"
	n=$(wc -l <"$tmp/found")
	if [ -z "$want" ]; then
		if [ "$n" -ne 0 ]; then
			fail "$name/$target: $rule should stay silent, found $n"
		else
			silent=$((silent + 1))
			echo "ok   $name/$target: $rule silent"
		fi
	elif grep -qF -- "$want" "$tmp/found"; then
		if grep -q "^$name/$target $rule:" tests/xla/known_misses.txt; then
			fail "$name/$target: XPASS: $rule now flags '$want'; remove it from tests/xla/known_misses.txt"
		else
			fired=$((fired + 1))
			echo "ok   $name/$target: $rule fires on $want"
		fi
	elif grep -q "^$name/$target $rule:" tests/xla/known_misses.txt; then
		xfail=$((xfail + 1))
		echo "XFAIL $name/$target: $rule does not flag '$want' (tests/xla/known_misses.txt)"
	else
		fail "$name/$target: $rule does not flag '$want' ($n findings of the rule)"
	fi
done <"$tmp/rows"
echo "$fired firing cases, $silent silent twins, $xfail known misses"
[ "$fired" -ge 20 ] && [ "$silent" -ge 20 ] || fail "too few scenario cases ran"
exit $st
