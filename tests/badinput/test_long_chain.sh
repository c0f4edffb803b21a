#!/bin/sh
# test_long_chain.sh - use-before-definition and cycles at the end of a
# 300 000-instruction dependence chain: located errors, exit 2, no stack
# overflow in the cycle search.
HLOLINT=${HLOLINT:-build/hlolint}
N=${CHAIN:-300000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-chain.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# gen FILE FIRST: %a0 uses FIRST; %a1..%aN chain back to %p
gen() {
	awk -v n="$N" -v first="$2" 'BEGIN {
		printf "ENTRY %%main {\n  %%p = f32[] parameter(0)\n"
		printf "  %%a0 = f32[] negate(%s)\n", first
		printf "  %%a1 = f32[] negate(%%p)\n"
		for (i = 2; i <= n; i++) printf "  %%a%d = f32[] negate(%%a%d)\n", i, i - 1
		printf "  ROOT %%r = f32[] add(%%a0, %%a%d)\n}\n", n
	}' >"$1"
}

# check NAME FILE MESSAGE-REGEX
check() {
	timeout 60 "$HLOLINT" parse "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ]; then
		echo "FAIL $1: exit $rc, expected 2"; head -n 3 "$tmp/err"; fails=$((fails + 1))
	elif ! head -n 1 "$tmp/err" | grep -q "^$2:3:[0-9]*: error: $3\$"; then
		echo "FAIL $1: unexpected first line:"; head -n 1 "$tmp/err"; fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

# %a0 uses %aN, defined later, which does not depend on %a0: forward use.
gen "$tmp/forward.hlo" "%a$N"
check forward "$tmp/forward.hlo" "use of 'a$N' before its definition"

# Now %a1 uses %a0 instead of %p: a cycle N instructions long.
gen "$tmp/cycle.hlo" "%a$N"
sed 's/^  %a1 = f32\[\] negate(%p)$/  %a1 = f32[] negate(%a0)/' "$tmp/cycle.hlo" >"$tmp/cycle2.hlo"
check cycle "$tmp/cycle2.hlo" "instruction 'a0' depends on itself through 'a$N' (cycle)"

[ "$fails" -eq 0 ]
