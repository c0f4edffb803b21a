#!/bin/sh
# test_text_short.sh - what check's text says of each finding (issue 46),
# on every compile of corpora/xla, on tests/rules and on the third-party
# modules of ../shared/corpora/real (when present):
#  - by default a finding is its headline, the source line and caret, and
#    at most three notes (where the Python line or the HLO instruction is,
#    the fact that decides, the fix); a fact true of the whole module
#    ("N parameters of this module could be donated") is said once per
#    module, after its findings, not once per finding;
#  - --verbose shows every note, more than the default;
#  - a message (the headline without location and rule) is at most 72
#    columns, so that with a short path the headline fits 100;
#  - --format concise is one line per finding, path:line[:col]: severity:
#    message [rule], and the summary.
. tests/lib.sh
set -- corpora/xla/out/*/*/*/after_optimizations.hlo.gz tests/rules/*/*.hlo
# Modules nobody here wrote (../shared/corpora/real), when present: the
# limits were set on ours.
real=../shared/corpora/real
if [ -d "$real" ]; then
	# shellcheck disable=SC2046  # file names without spaces
	set -- "$@" $(find "$real" -name '*.hlo' | sort)
else
	echo "note: $real is absent: checked on our own modules only"
fi
opts="--no-config --target tpu-v5e --select all"
# shellcheck disable=SC2086  # opts is split on purpose
"$HLOLINT" check $opts "$@" >"$tmp/text" 2>/dev/null
# shellcheck disable=SC2086
"$HLOLINT" check $opts --verbose "$@" >"$tmp/verbose" 2>/dev/null
# shellcheck disable=SC2086
"$HLOLINT" check $opts --format concise "$@" >"$tmp/concise" 2>/dev/null
# shellcheck disable=SC2086
"$HLOLINT" check $opts --format json "$@" >"$tmp/json" 2>/dev/null
n=$(grep -c '"fingerprint":' "$tmp/json")
[ "$n" -ge 100 ] || fail "only $n findings on the corpus"

# Wrapped notes joined to the line they continue (a source line may start
# with six spaces too: it follows a headline, never a note).
for f in text verbose; do
	awk '/^      / && (buf ~ /^note: / || (buf ~ /^[^ ]*: note: / && buf !~ /:[0-9]+(:[0-9]+)?: note: /)) {
		sub(/^ +/, " "); buf = buf $0; next }
	     NR > 1 { print buf } { buf = $0 } END { print buf }' \
		"$tmp/$f" >"$tmp/$f.joined" && mv "$tmp/$f.joined" "$tmp/$f"
done

# Blocks: a headline ends in [rule] and carries a line number; a module
# note is "path: note: ... [rule]" without one (its wrapped lines start
# with six spaces).
awk -v max=3 '
	/^ {6}/ { next }
	/^[^ ].*: (error|warning|note): .*\[[a-z-]+\]$/ && /:[0-9]+(:[0-9]+)?: (error|warning|note): / {
		if (notes > max) { print "FAIL: " notes " notes under: " head; bad = 1 }
		head = $0; notes = 0; next
	}
	/^[^ ]*: note: / && !/:[0-9]+(:[0-9]+)?: note: / { mod[$0]++; next }
	/^note: / || /^[^ ].*:[0-9]+(:[0-9]+)?: note: / { notes++ }
	END {
		if (notes > max) { print "FAIL: " notes " notes under: " head; bad = 1 }
		for (m in mod) if (mod[m] > 1) { print "FAIL: said " mod[m] " times: " m; bad = 1 }
		exit bad
	}' "$tmp/text" >"$tmp/blocks" || fail "$(head -n 5 "$tmp/blocks")"
grep -q 'parameters of this module could be donated' "$tmp/text" || fail "no module-wide donation note"
a=$(grep -c 'parameters of this module could be donated' "$tmp/text")
b=$(grep -c 'parameters of this module could be donated' "$tmp/verbose")
[ "$b" -gt "$a" ] || fail "--verbose does not repeat the module note on each finding ($b, default $a)"
a=$(grep -c '^note: ' "$tmp/text")
b=$(grep -c '^note: ' "$tmp/verbose")
[ "$b" -gt $((a + n)) ] || fail "--verbose shows $b notes, the default $a: not every note"

sed -n 's/^ *"message": "\(.*\)",$/\1/p' "$tmp/json" | awk 'length($0) > 72 { print; bad = 1 } END { exit bad }' \
	>"$tmp/long" || fail "messages over 72 columns: $(head -n 3 "$tmp/long")"

c=$(grep -c -E '^[^ ]+:[0-9]+(:[0-9]+)?: (error|warning|note): .* \[[a-z-]+\]$' "$tmp/concise")
[ "$c" = "$n" ] || fail "concise: $c finding lines for $n findings"
grep -v -E '^[^ ]+:[0-9]+(:[0-9]+)?: (error|warning|note): .* \[[a-z-]+\]$' "$tmp/concise" |
	grep -v '^hlolint: ' >"$tmp/other" && fail "concise: other lines: $(head -n 3 "$tmp/other")"
exit $st
