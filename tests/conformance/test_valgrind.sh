#!/bin/sh
# suite: long
# test_valgrind.sh - hlolint parse and fmt under valgrind memcheck over the
# real corpus (../shared/corpora/real): no invalid reads/writes, no
# uninitialised jumps, no leaks.  The 20 smallest files by default (valgrind
# is slow); FULL=1 runs every file.  Error paths too: every 8th golden
# input of tests/errors and tests/badinput (all of them with FULL=1) must
# give hlolint's own status, never valgrind's 9.  Skips when valgrind or the corpus is
# missing.  The binary must be an ordinary build (not -fsanitize).
HLOLINT=${HLOLINT:-build/hlolint}
CORPORA=${CORPORA:-../shared/corpora}
COUNT=${COUNT:-20}
LC_ALL=C
export LC_ALL

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind not installed (apt-get install valgrind): skipped"
	exit 77
fi
if [ ! -d "$CORPORA/real" ]; then
	echo "corpus not found at $CORPORA/real: skipped"
	exit 77
fi
case $HLOLINT in */san/*)
	echo "$HLOLINT is a sanitizer build; valgrind needs an ordinary one: skipped"
	exit 77
	;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-vg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Files by size, smallest first (names have no spaces).
ls -S -r "$CORPORA"/real/*/*.hlo "$CORPORA"/real/*/*.hlotxt 2>/dev/null >"$tmp/files"
if [ -z "$FULL" ]; then
	head -n "$COUNT" "$tmp/files" >"$tmp/sel"
else
	cp "$tmp/files" "$tmp/sel"
fi

fails=0
runs=0
while IFS= read -r f; do
	for cmd in parse fmt; do
		runs=$((runs + 1))
		valgrind -q --error-exitcode=9 --leak-check=full \
			"$HLOLINT" $cmd "$f" >/dev/null 2>"$tmp/vg"
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fails=$((fails + 1))
			echo "FAIL $cmd ${f#"$CORPORA"/}: exit $rc"
			grep -m 12 '==[0-9]*==' "$tmp/vg"
		fi
	done
done <"$tmp/sel"
TESTS_DIR=${TESTS_DIR:-tests}
ls "$TESTS_DIR"/errors/*.hlo "$TESTS_DIR"/badinput/*.hlo 2>/dev/null >"$tmp/bad"
if [ -z "$FULL" ]; then
	awk 'NR % 8 == 1' "$tmp/bad" >"$tmp/badsel"
else
	cp "$tmp/bad" "$tmp/badsel"
fi
while IFS= read -r f; do
	runs=$((runs + 1))
	valgrind -q --error-exitcode=9 --leak-check=full "$HLOLINT" parse "$f" >/dev/null 2>"$tmp/vg"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
		fails=$((fails + 1))
		echo "FAIL parse $f: exit $rc"
		grep -m 12 '==[0-9]*==' "$tmp/vg"
	fi
done <"$tmp/badsel"
echo "valgrind: $((runs - fails))/$runs runs clean ($(wc -l <"$tmp/sel") corpus files, $(wc -l <"$tmp/badsel") error inputs${FULL:+, FULL})"
[ "$fails" -eq 0 ]
