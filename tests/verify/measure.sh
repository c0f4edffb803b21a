#!/bin/sh
# measure.sh - how well `hlolint parse` separates good from bad HLO text:
# prints the accepted share of the whole-module ok/ inputs of the XLA parser
# test corpus, the rejected share of ALL bad/ inputs, and the accepted share
# of the real dumps.  Reads ../shared/corpora (relative to the project root)
# and skips with a message when it is absent.  Not a pass/fail test.
#
# Usage: tests/verify/measure.sh [-v]   (-v lists every misclassified file)
# Env:   HLOLINT=build/hlolint  CORPORA=../shared/corpora

LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/../.." || exit 2
HLOLINT=${HLOLINT:-build/hlolint}
CORPORA=${CORPORA:-../shared/corpora}
verbose=
[ "${1:-}" = -v ] && verbose=1
pt=$CORPORA/xla-parser-tests
if [ ! -f "$pt/INDEX.tsv" ] || [ ! -d "$CORPORA/real" ]; then
	echo "skip: $CORPORA (xla-parser-tests, real) not found"
	exit 0
fi
if [ ! -x "$HLOLINT" ]; then
	echo "measure.sh: $HLOLINT not built (run make)" >&2
	exit 2
fi

ok_n=0 ok_pass=0 bad_n=0 bad_rej=0 real_n=0 real_pass=0
# Column 1 is the file, 4 XLA's error substring, 5 why; tabs are
# converted to a non-whitespace separator so empty columns survive read.
tr '\t' '\037' <"$pt/INDEX.tsv" >"${TMPDIR:-/tmp}/measure.$$"
sep=$(printf '\037')
while IFS=$sep read -r file test expect substr notes; do
	case $file in
	ok/*.hlo)
		case $notes in *non-module*) continue ;; esac
		ok_n=$((ok_n + 1))
		if timeout 20 "$HLOLINT" parse "$pt/$file" >/dev/null 2>&1; then
			ok_pass=$((ok_pass + 1))
		elif [ -n "$verbose" ]; then
			echo "ok rejected: $file"
		fi
		;;
	bad/*.hlo)
		bad_n=$((bad_n + 1))
		timeout 20 "$HLOLINT" parse "$pt/$file" >/dev/null 2>&1
		rc=$?
		if [ "$rc" -eq 2 ]; then
			bad_rej=$((bad_rej + 1))
		elif [ -n "$verbose" ]; then
			echo "bad accepted (exit $rc): $file  [$substr]"
		fi
		;;
	esac
done <"${TMPDIR:-/tmp}/measure.$$"
rm -f "${TMPDIR:-/tmp}/measure.$$"

for f in "$CORPORA"/real/*/*.hlo*; do
	[ -f "$f" ] || continue
	real_n=$((real_n + 1))
	if timeout 60 "$HLOLINT" parse "$f" >/dev/null 2>&1; then
		real_pass=$((real_pass + 1))
	elif [ -n "$verbose" ]; then
		echo "real rejected: $f"
	fi
done

pct() { [ "$2" -gt 0 ] && echo $(($1 * 100 / $2)) || echo 0; }
echo "ok   accepted: $ok_pass/$ok_n ($(pct $ok_pass $ok_n)%)"
echo "bad  rejected: $bad_rej/$bad_n ($(pct $bad_rej $bad_n)%)"
echo "real accepted: $real_pass/$real_n ($(pct $real_pass $real_n)%)"
