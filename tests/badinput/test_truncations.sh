#!/bin/sh
# suite: long
# test_truncations.sh - every valid module of tests/parse cut short at many
# byte offsets (every offset for a few, 15 evenly spaced ones for the rest):
# parse and fmt must exit 0 or 2, never crash or hang, and an exit 2 must
# come with a located "path:line:col: error:" first line.
HLOLINT=${HLOLINT:-build/hlolint}
TESTS_DIR=${TESTS_DIR:-tests}
FULL_FILES="comments_everywhere"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-trunc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
runs=0

one() {  # one FILE OFFSET
	head -c "$2" "$1" >"$tmp/t.hlo"
	for cmd in parse fmt; do
		timeout 10 "$HLOLINT" $cmd "$tmp/t.hlo" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		case $rc in
		0) ;;
		2)
			if ! head -n 1 "$tmp/err" | grep -q "^$tmp/t.hlo:[0-9]*:[0-9]*: error: "; then
				echo "FAIL $cmd $1 cut at $2: unlocated error: $(head -n 1 "$tmp/err")"
				fails=$((fails + 1))
			fi
			;;
		*)
			echo "FAIL $cmd $1 cut at $2: exit $rc"
			head -n 3 "$tmp/err"
			fails=$((fails + 1))
			cp "$tmp/t.hlo" "$tmp/../hlolint-trunc-crash.hlo" 2>/dev/null
			;;
		esac
	done
}

for f in "$TESTS_DIR"/parse/*.hlo; do
	[ -f "$f" ] || continue
	size=$(wc -c <"$f")
	name=$(basename "$f" .hlo)
	full=
	for x in $FULL_FILES; do [ "$x" = "$name" ] && full=1; done
	if [ -n "$full" ]; then
		off=0
		while [ "$off" -lt "$size" ]; do
			one "$f" "$off"
			off=$((off + 1))
		done
	else
		k=0
		while [ "$k" -lt 15 ]; do
			one "$f" $((size * k / 15))
			k=$((k + 1))
		done
	fi
	[ "$fails" -gt 20 ] && break
done
echo "$runs runs, $fails failures"
[ "$fails" -eq 0 ]
