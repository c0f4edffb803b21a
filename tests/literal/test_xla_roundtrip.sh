#!/bin/sh
# test_xla_roundtrip.sh - constants in XLA's own printer output re-print
# byte-identically: the constant lines of every ok/long.* (long style),
# ok/short.* (short style) and the elided unit.ShortConstant (default style)
# of the XLA parser tests in ../shared/corpora.  Skips when the corpus is absent.
HLOLINT=${HLOLINT:-build/hlolint}
C=../shared/corpora/xla-parser-tests/ok
if [ ! -d "$C" ]; then
	echo "skip: $C not found (shared corpora absent)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/literal-rt.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0
for f in "$C"/long.*.hlo "$C"/short.*.hlo "$C"/unit.ShortConstant.hlo; do
	grep -q ' constant(' "$f" || continue
	case ${f##*/} in
	long.*) style=long ;;
	short.*) style=short ;;
	*) style=default ;;
	esac
	n=$((n + 1))
	if ! "$HLOLINT" fmt --style=$style "$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL ${f##*/}: fmt failed: $(head -n 1 "$tmp/err")"
		bad=$((bad + 1))
		continue
	fi
	grep ' constant(' "$f" >"$tmp/want"
	grep ' constant(' "$tmp/out" >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		echo "FAIL ${f##*/} (--style=$style):"
		diff "$tmp/want" "$tmp/got" | head -n 10
		bad=$((bad + 1))
	fi
done
echo "constant round trips: $((n - bad)) of $n files identical"
[ "$bad" -eq 0 ]
