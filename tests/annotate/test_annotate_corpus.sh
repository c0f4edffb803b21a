#!/bin/sh
# test_annotate_corpus.sh - `hlolint annotate` over every module of
# ../shared/corpora/real (skipped when absent):
#  1. with --select of a rule that does not fire on the file, the output is
#     the input byte for byte;
#  2. with every rule, deleting the added "// hlolint: " lines gives the
#     input back (comments only, nothing else touched);
#  3. with --apply, the output parses, annotate reports no applied finding
#     as still present, and check on the output no longer reports any
#     applied finding at its instruction.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
CORPUS=../shared/corpora/real
if [ ! -d "$CORPUS" ]; then
	echo "skip: $CORPUS not present"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-annotate-corpus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
dir=$(dirname "$0")
rules="host-transfer replicated-oversized padding-waste loop-carry-offload missed-donation hbm-over-budget"
st=0
n=0
identical=0
applied=0
for f in "$CORPUS"/*/*.hlo "$CORPUS"/*/*.hlotxt; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	# 1. A rule that does not fire here.
	quiet=
	for r in $rules; do
		if "$HLOLINT" check --no-config --fail-on note --select "$r" "$f" >/dev/null 2>&1; then
			quiet=$r
			break
		fi
	done
	if [ -n "$quiet" ]; then
		"$HLOLINT" annotate --no-config --select "$quiet" "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] || ! cmp -s "$f" "$tmp/out"; then
			echo "FAIL: $f: annotate --select $quiet (no finding) is not byte-identical (exit $rc)"
			head -n 3 "$tmp/err"
			st=1
		else
			identical=$((identical + 1))
		fi
	fi
	# 2. Every rule: only comment lines are added.
	"$HLOLINT" annotate --no-config "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "FAIL: $f: annotate exit $rc"
		head -n 3 "$tmp/err"
		st=1
		continue
	fi
	grep -v '^[[:space:]]*// hlolint: ' "$tmp/out" >"$tmp/stripped"
	grep -v '^[[:space:]]*// hlolint: ' "$f" >"$tmp/orig"
	if ! cmp -s "$tmp/stripped" "$tmp/orig"; then
		echo "FAIL: $f: annotate changed more than comment lines"
		diff "$tmp/orig" "$tmp/stripped" | head -n 10
		st=1
	fi
	# 3. --apply: parses, and the applied findings are gone.
	grep -q '^[[:space:]]*// hlolint: [a-z-]*: .*; suggestion: \(sharding\|memory space\)' "$tmp/out" || continue
	"$HLOLINT" annotate --no-config --apply -o "$tmp/applied.hlo" "$f" 2>"$tmp/err"
	rc=$?
	if [ $rc -gt 1 ] || grep -q 'still reports' "$tmp/err"; then
		echo "FAIL: $f: annotate --apply exit $rc"
		head -n 5 "$tmp/err"
		st=1
		continue
	fi
	if ! "$HLOLINT" parse "$tmp/applied.hlo" 2>"$tmp/err"; then
		echo "FAIL: $f: the --apply output does not parse"
		head -n 5 "$tmp/err"
		st=1
		continue
	fi
	if ! sh "$dir/applied_gone.sh" "$tmp/applied.hlo" --no-config; then
		echo "FAIL: $f: check still reports applied findings"
		st=1
	fi
	applied=$((applied + 1))
done
echo "$n modules: $identical byte-identical with a silent rule, $applied rewritten with --apply"
exit $st
