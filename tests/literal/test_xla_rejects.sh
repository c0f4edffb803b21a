#!/bin/sh
# test_xla_rejects.sh - every XLA parser negative test whose INDEX.tsv reason
# is a literal error (range, nan payload, nesting, syntax) is rejected with
# exit 2 and an error located inside its constant(...).  Skips when the
# corpus is absent or the verifier does not check literals yet.
HLOLINT=${HLOLINT:-build/hlolint}
X=../shared/corpora/xla-parser-tests
if [ ! -f "$X/INDEX.tsv" ]; then
	echo "skip: $X not found (shared corpora absent)"
	exit 77
fi
probe='HloModule probe
ENTRY %e () -> u4[] {
  ROOT %c = u4[] constant(16)
}'
if printf '%s\n' "$probe" | "$HLOLINT" parse - >/dev/null 2>&1; then
	echo "skip: the verifier does not call literal_check yet (u4 constant(16) accepted)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/literal-bad.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
awk -F'\t' '$3 == "bad" && $5 ~ /reject-layer: literal \(/ { print $1 }' "$X/INDEX.tsv" >"$tmp/list"
n=0
bad=0
while IFS= read -r rel; do
	f=$X/$rel
	n=$((n + 1))
	"$HLOLINT" parse "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	first=$(grep -m 1 ': error: ' "$tmp/err")
	# path:LINE:COL: error: ... -> the column must fall after "constant(" on that line.
	pos=${first#"$f":}
	line=${pos%%:*}
	col=${pos#*:}
	col=${col%%:*}
	text=$(sed -n "${line}p" "$f" 2>/dev/null)
	pre=${text%%constant(*}
	if [ "$rc" -ne 2 ] || [ -z "$first" ] || [ "$pre" = "$text" ] || [ "$col" -le "${#pre}" ]; then
		echo "FAIL $rel: exit $rc, first error: ${first:-none}"
		bad=$((bad + 1))
	fi
done <"$tmp/list"
echo "literal rejects: $((n - bad)) of $n XLA negative tests rejected at the literal"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
