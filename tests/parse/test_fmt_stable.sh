#!/bin/sh
# test_fmt_stable.sh - for every tests/parse input that parses, fmt output
# re-parses and is a fixed point (fmt(fmt(x)) == fmt(x)) in each style.
# Known exceptions, shared with XLA's own printer:
#   names_reserved:short        bare names that are keywords/types (no '%')
#   fmt_canon_literals:fixpoint -0.0 prints as -0, which reads back as the
#                               integer 0 (XLA loses the sign the same way)
HLOLINT=${HLOLINT:-build/hlolint}
TESTS_DIR=${TESTS_DIR:-tests}
EXCEPT="names_reserved:short:reparse names_reserved:short:fixpoint fmt_canon_literals:default:fixpoint fmt_canon_literals:long:fixpoint fmt_canon_literals:short:fixpoint"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-stable.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

excepted() {
	for x in $EXCEPT; do [ "$x" = "$1" ] && return 0; done
	return 1
}

for f in "$TESTS_DIR"/parse/*.hlo; do
	timeout 20 "$HLOLINT" parse "$f" >/dev/null 2>&1
	rc=$?
	# 2 is a parse error (those inputs are not fmt's); anything else but 0
	# is a crash or a hang.
	[ "$rc" -eq 2 ] && continue
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $(basename "$f"): parse exited $rc"
		fails=$((fails + 1))
		continue
	fi
	name=$(basename "$f" .hlo)
	for style in default long short; do
		checks=$((checks + 1))
		if ! timeout 20 "$HLOLINT" fmt --style=$style "$f" >"$tmp/1.hlo" 2>"$tmp/err"; then
			echo "FAIL $name --style=$style: fmt failed: $(head -n 1 "$tmp/err")"
			fails=$((fails + 1))
			continue
		fi
		if ! timeout 20 "$HLOLINT" fmt --style=$style "$tmp/1.hlo" >"$tmp/2.hlo" 2>"$tmp/err"; then
			excepted "$name:$style:reparse" && continue
			echo "FAIL $name --style=$style: output does not re-parse: $(head -n 1 "$tmp/err" | sed 's/^[^ ]* //')"
			fails=$((fails + 1))
		elif ! cmp -s "$tmp/1.hlo" "$tmp/2.hlo"; then
			excepted "$name:$style:fixpoint" && continue
			echo "FAIL $name --style=$style: fmt is not a fixed point:"
			diff "$tmp/1.hlo" "$tmp/2.hlo" | grep -m 2 '^[<>]' | cut -c1-160
			fails=$((fails + 1))
		fi
	done
done
echo "$checks checks, $fails failures"
# Most inputs parse (276 checks today): far fewer means they stopped parsing.
[ "$checks" -ge 200 ] || { echo "FAIL: only $checks checks (want >= 200)"; exit 1; }
[ "$fails" -eq 0 ]
