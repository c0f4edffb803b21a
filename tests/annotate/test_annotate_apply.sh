#!/bin/sh
# test_annotate_apply.sh - every --apply golden of tests/annotate, checked
# on its expected output (X.out.hlo) with the golden's own options:
#  - it parses and verifies (hlolint parse);
#  - check no longer reports the applied findings (applied_gone.sh), and
#    reports exactly (findings before) - (suggestions made) - (findings
#    marked resolved) of them;
#  - mem gives the peak the summary line announces as "after";
#  - annotate --apply on it has nothing left to make.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
dir=$(dirname "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-annotate-apply.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
st=0
count() { # CHECK-ARGS... FILE: number of findings check reports
	"$HLOLINT" check --exit-zero "$@" 2>/dev/null | grep -c '^[^ ]*:[0-9]*:[0-9]*: [a-z]*: '
}
n=0
for in in "$dir"/*.hlo; do
	case $in in *.out.hlo) continue ;; esac
	out=${in%.hlo}.out.hlo
	[ -f "$out" ] || continue
	args=$(sed -n '1s|^// args: annotate ||p' "$in")
	case " $args " in *" --apply "*) ;; *) continue ;; esac
	n=$((n + 1))
	name=$(basename "$in" .hlo)
	# The options of check: the golden's, without annotate's own.
	copts=$(printf '%s\n' "$args" | sed -e 's/--apply//' -e 's/--diff//')
	if ! "$HLOLINT" parse "$out" 2>"$tmp/err"; then
		echo "FAIL: $name: the expected output does not parse"
		head -n 5 "$tmp/err"
		st=1
		continue
	fi
	# shellcheck disable=SC2086
	sh "$dir/applied_gone.sh" "$out" $copts || {
		echo "FAIL: $name: applied findings still reported"
		st=1
	}
	made=$(sed -n 's|^// hlolint: --apply made \([0-9]*\) of .*|\1|p' "$out" | awk '{s += $1} END {print s + 0}')
	# shellcheck disable=SC2086
	before=$(count $copts "$in")
	# shellcheck disable=SC2086
	after=$(count $copts "$out")
	resolved=$(grep -c '^[[:space:]]*// hlolint: .*(resolved: no longer reported' "$out")
	if [ "$after" -ne $((before - made - resolved)) ]; then
		echo "FAIL: $name: $before findings before, $made made, $resolved resolved, $after after"
		st=1
	fi
	want=$(sed -n 's|^// hlolint: estimated memory per device: .* before, \([^ ]*\) after.*|\1|p' "$out" | head -n 1)
	if [ -n "$want" ]; then
		mopts=$(printf '%s\n' "$copts" | sed -e 's/--select [^ ]*//' -e 's/--no-config//' -e 's/--[a-z-]*-min-[a-z]* [^ ]*//g')
		# shellcheck disable=SC2086
		got=$("$HLOLINT" mem $mopts "$out" | sed -n 's/^Total hbm allocation [^ ]* \([^ ]*\) .*/\1/p' | head -n 1)
		if [ "$got" != "$want" ]; then
			echo "FAIL: $name: mem says the peak is $got, the summary $want"
			st=1
		fi
	fi
	# shellcheck disable=SC2086
	"$HLOLINT" annotate $args -o "$tmp/again.hlo" "$out" 2>"$tmp/err"
	# A new summary block comes first, before the one already there.
	if [ "$(grep -c '^// hlolint: --apply made' "$tmp/again.hlo")" -gt "$(grep -c '^// hlolint: --apply made' "$out")" ] &&
		grep '^// hlolint: --apply made' "$tmp/again.hlo" | head -n 1 | grep -q 'made [1-9]'; then
		echo "FAIL: $name: annotate --apply on the output still makes changes"
		st=1
	fi
done
[ "$n" -gt 0 ] || {
	echo "FAIL: no --apply golden found"
	st=1
}
echo "$n --apply goldens checked"
exit $st
