#!/bin/sh
# test_nested_bodies.sh - 4 000 levels of nested inline computations
# (to_apply={ ... to_apply={ ... } }) parse in well under 10 s: callee values
# must not be re-parsed once per enclosing level (quadratic time).
HLOLINT=${HLOLINT:-build/hlolint}
N=${LEVELS:-4000}
LIMIT=${LIMIT:-10}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-bodies.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
awk -v n="$N" 'BEGIN {
	printf "%%id {\n  ROOT %%x = f32[] parameter(0)\n}\n\nENTRY %%main {\n  %%p = f32[] parameter(0)\n"
	printf "  ROOT %%r = f32[] call(%%p), to_apply="
	for (i = 0; i < n; i++) printf "{ %%x = f32[] parameter(0) ROOT %%y = f32[] call(%%x), to_apply="
	printf "%%id"
	for (i = 0; i < n; i++) printf "}"
	printf "\n}\n"
}' >"$tmp/nested.hlo"
start=$(date +%s)
timeout "$LIMIT" "$HLOLINT" parse "$tmp/nested.hlo" >"$tmp/out" 2>"$tmp/err"
rc=$?
t=$(($(date +%s) - start))
if [ "$rc" -eq 124 ]; then
	echo "FAIL $N nested bodies: still running after ${LIMIT}s"
	exit 1
elif [ "$rc" -ne 0 ]; then
	echo "FAIL $N nested bodies: exit $rc"; head -n 3 "$tmp/err" | cut -c1-200
	exit 1
fi
echo "ok   $N nested bodies in ${t}s"
