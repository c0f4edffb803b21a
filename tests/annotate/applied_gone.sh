#!/bin/sh
# applied_gone.sh OUT.hlo [CHECK OPTIONS...] - helper of the annotate shell
# tests (not a test itself): exit 1 when `hlolint check` on an --apply
# output still reports a finding that the output marks as applied, i.e. a
# "// hlolint: applied RULE: MESSAGE" line above the same instruction.
HLOLINT=${HLOLINT:-build/hlolint}
out=$1
shift
name() { # the instruction defined on a line of HLO text
	sed -e 's/^[[:space:]]*//' -e 's/^ROOT[[:space:]]*//' -e 's/^%//' -e 's/[[:space:]=].*//'
}
applied=$(awk '
	/^[ \t]*\/\/ hlolint: applied [a-z-]+: / {
		rest = $0
		sub(/^[ \t]*\/\/ hlolint: applied /, "", rest)
		rule = rest
		sub(/: .*/, "", rule)
		msg = rest
		sub(/^[a-z-]+: /, "", msg)
		if (msg !~ /^was / && msg !~ /^entry_computation_layout/)
			pending = pending " " rule
		next
	}
	/^[ \t]*\/\/ hlolint: / { next }
	{
		if (pending != "") {
			line = $0
			sub(/^[ \t]*/, "", line)
			sub(/^ROOT[ \t]*/, "", line)
			sub(/^%/, "", line)
			sub(/[ \t=].*/, "", line)
			n = split(pending, r, " ")
			for (k = 1; k <= n; k++)
				print r[k], line
			pending = ""
		}
	}' "$out" | sort -u)
[ -n "$applied" ] || exit 0
"$HLOLINT" check "$@" --format text --exit-zero "$out" 2>/dev/null |
	sed -n 's/^[^ ]*:\([0-9][0-9]*\):[0-9][0-9]*: [a-z]*: .* \[\([a-z-]*\)\]$/\1 \2/p' >"$out.found"
st=0
while read -r line rule; do
	instr=$(sed -n "${line}p" "$out" | name)
	if printf '%s\n' "$applied" | grep -qx "$rule $instr"; then
		echo "still reported after --apply: $rule at %$instr (line $line)"
		st=1
	fi
done <"$out.found"
rm -f "$out.found"
exit $st
