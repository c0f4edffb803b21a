#!/bin/sh
# suite: long
# test_annotate_roundtrip.sh - annotate on its own output.  For every golden
# of tests/annotate (with its own options), every compile of corpora/xla and
# every real module (when ../shared/corpora is present):
#  - annotating the output again gives the same bytes (comments replaced,
#    never a second summary); with --apply nothing is made a second time;
#  - annotate --strip of the output gives back the input byte for byte
#    when nothing was applied, and with --apply the applied module without
#    one hlolint comment (what --apply --strip writes at once);
#  - the same with the input parsed in pieces on threads.
# Exit statuses must be 0 or 1 (2 for the goldens that expect it).
. tests/lib.sh
dir=tests/annotate

# roundtrip LABEL INPUT ARGS...: the three properties above.
roundtrip() {
	label=$1 in=$2
	shift 2
	"$HLOLINT" annotate "$@" "$in" -o "$tmp/a1.hlo" 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ] || { fail "$label: annotate exited $rc: $(head -n 1 "$tmp/err")"; return; }
	"$HLOLINT" annotate "$@" "$tmp/a1.hlo" -o "$tmp/a2.hlo" 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ] || { fail "$label: annotate of its output exited $rc"; return; }
	cmp -s "$tmp/a1.hlo" "$tmp/a2.hlo" ||
		fail "$label: annotating the output again changed it: $(diff "$tmp/a1.hlo" "$tmp/a2.hlo" |
			grep -m 1 '^[<>]' | cut -c1-90)"
	"$HLOLINT" annotate --strip "$tmp/a1.hlo" -o "$tmp/s.hlo" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || { fail "$label: --strip exited $rc: $(head -n 1 "$tmp/err")"; return; }
	grep -q '// hlolint:' "$tmp/s.hlo" && fail "$label: --strip left an hlolint comment"
	case " $* " in
	*" --apply "*)
		"$HLOLINT" annotate "$@" --strip "$in" -o "$tmp/as.hlo" 2>/dev/null
		cmp -s "$tmp/s.hlo" "$tmp/as.hlo" || fail "$label: --strip of --apply's output is not --apply --strip" ;;
	*)
		if [ "${in%.gz}" = "$in" ]; then
			cmp -s "$in" "$tmp/s.hlo" || fail "$label: --strip did not give back the input"
		else
			gzip -dc "$in" | cmp -s - "$tmp/s.hlo" || fail "$label: --strip did not give back the input"
		fi ;;
	esac
	HLO_PARSE_PIECES_MIN=1 "$HLOLINT" annotate --strip -j 3 "$tmp/a1.hlo" -o "$tmp/p.hlo" 2>/dev/null
	cmp -s "$tmp/s.hlo" "$tmp/p.hlo" || fail "$label: --strip of an input parsed in pieces differs"
}

n=0
for in in "$dir"/*.hlo; do
	case $in in *.out.hlo) continue ;; esac
	[ -f "${in%.hlo}.out.hlo" ] || continue
	args=$(sed -n '1s|^// args: annotate ||p' "$in" | sed 's/--diff//')
	grep -q '^// exit: 2' "$in" && continue   # parse errors: nothing is written
	n=$((n + 1))
	# shellcheck disable=SC2086
	roundtrip "$(basename "$in")" "$in" $args
done
for z in corpora/xla/out/*/*/*/after_optimizations.hlo.gz corpora/examples/*.hlo; do
	n=$((n + 1))
	roundtrip "$z" "$z" --no-config
	roundtrip "$z --apply" "$z" --no-config --apply
done
if [ -d ../shared/corpora/real ]; then
	for f in $(find ../shared/corpora/real -type f \( -name '*.txt' -o -name '*.hlo' \) | sort); do
		"$HLOLINT" parse "$f" >/dev/null 2>&1 || continue
		n=$((n + 1))
		roundtrip "$f" "$f" --no-config
		roundtrip "$f --apply" "$f" --no-config --apply
	done
else
	echo "skip: ../shared/corpora/real is absent (third-party corpus); the project's inputs only"
fi
echo "$n inputs annotated, annotated again and stripped"
[ "$n" -ge 20 ] || fail "only $n inputs"
exit $st
