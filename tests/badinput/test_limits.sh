#!/bin/sh
# test_limits.sh - sizes past the IR's compact fields and other large
# counts: 70 000 attributes on one instruction (the count is 16-bit) is a
# located error, not a silent truncation; 70 000-character names and
# opcodes survive (fmt reprints the name whole); 200 000 operands, 100 000
# parameters and 50 000 computations parse quickly.
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-limits.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# expect_err NAME FILE REGEX: exit 2, first line matches REGEX
expect_err() {
	timeout 30 "$HLOLINT" parse "$2" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ]; then
		fail "$1: exit $rc, expected 2"
	elif ! head -n 1 "$tmp/err" | grep -q "$3"; then
		fail "$1: $(head -n 1 "$tmp/err" | cut -c1-160)"
	else
		echo "ok   $1"
	fi
}
expect_ok() {
	timeout 30 "$HLOLINT" parse "$2" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$1: exit $rc: $(head -n 1 "$tmp/err" | cut -c1-160)"
	else
		echo "ok   $1"
	fi
}

awk 'BEGIN { printf "ENTRY %%m {\n  %%p = f32[] parameter(0)\n  ROOT %%r = f32[] negate(%%p)"
	for (i = 0; i < 70000; i++) printf ", a%d=1", i; printf "\n}\n" }' >"$tmp/attrs.hlo"
expect_err "70000 attributes" "$tmp/attrs.hlo" "^$tmp/attrs.hlo:3:[0-9]*: error: .*attributes"

awk 'BEGIN { printf "ENTRY %%m {\n  %%p = f32[] parameter(0)\n  ROOT %%"
	for (i = 0; i < 70000; i++) printf "n"; printf " = f32[] negate(%%p)\n}\n" }' >"$tmp/name.hlo"
expect_ok "70000-character name" "$tmp/name.hlo"
len=$("$HLOLINT" fmt --style=short "$tmp/name.hlo" 2>/dev/null | awk '/^  ROOT n/ { sub(/ = .*/, ""); print length($0) - 7 }')
[ "$len" = 70000 ] && echo "ok   fmt keeps the 70000-character name" || fail "fmt printed a ${len:-missing}-character name"

awk 'BEGIN { printf "ENTRY %%m {\n  %%p = f32[] parameter(0)\n  ROOT %%r = f32[] x"
	for (i = 0; i < 70000; i++) printf "y"; printf "(%%p)\n}\n" }' >"$tmp/op.hlo"
expect_err "70000-character unknown opcode" "$tmp/op.hlo" "^$tmp/op.hlo:3:19: error: unknown opcode 'xyyy"

awk 'BEGIN { printf "ENTRY %%m {\n  %%p = f32[] parameter(0)\n  ROOT %%r = tuple(%%p"
	for (i = 0; i < 200000; i++) printf ", %%p"; printf ")\n}\n" }' >"$tmp/ops.hlo"
expect_ok "200000 operands" "$tmp/ops.hlo"

awk 'BEGIN { printf "ENTRY %%m {\n"
	for (i = 0; i < 100000; i++) printf "  %%p%d = f32[] parameter(%d)\n", i, i
	printf "  ROOT %%r = f32[] negate(%%p0)\n}\n" }' >"$tmp/params.hlo"
expect_ok "100000 parameters" "$tmp/params.hlo"

awk 'BEGIN { for (i = 0; i < 50000; i++) printf "%%c%d {\n  ROOT %%x = f32[] parameter(0)\n}\n", i
	printf "ENTRY %%m {\n  %%p = f32[] parameter(0)\n  ROOT %%r = f32[] call(%%p), to_apply=%%c49999\n}\n" }' >"$tmp/comps.hlo"
expect_ok "50000 computations" "$tmp/comps.hlo"

awk 'BEGIN { printf "ENTRY %%m {\n  ROOT %%p = ("
	for (i = 0; i < 100000; i++) printf "%sf32[%d]", (i ? ", " : ""), i
	printf ") parameter(0)\n}\n" }' >"$tmp/tuple.hlo"
expect_ok "100000-element tuple shape" "$tmp/tuple.hlo"

[ "$fails" -eq 0 ]
