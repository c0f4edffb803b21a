#!/bin/sh
# suite: long
# test_huge_line.sh - a module whose whole text is one 100 MB line (a huge
# metadata string), generated under $TMPDIR at test time: the valid form
# parses; with an unknown opcode at its very end the error is located at
# line 1, a column past 100 000 000, and the echoed line is windowed (a few
# hundred bytes on stderr, not 100 MB).  SIZE_MB=N changes the size.
HLOLINT=${HLOLINT:-build/hlolint}
MB=${SIZE_MB:-100}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-huge.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# gen FILE OPCODE: one line, MB megabytes of 'a' inside op_name
gen() {
	{
		printf 'HloModule huge ENTRY %%main { %%p = f32[] parameter(0), metadata={op_name="'
		head -c $((MB * 1024 * 1024)) /dev/zero | tr '\0' a
		printf '"} ROOT %%r = f32[] %s(%%p) }' "$2"
	} >"$1"
}

gen "$tmp/good.hlo" negate
size=$(wc -c <"$tmp/good.hlo")
lines=$(wc -l <"$tmp/good.hlo")
[ "$lines" -eq 0 ] || { echo "FAIL generator made $lines newlines"; exit 1; }
start=$(date +%s)
timeout 120 "$HLOLINT" parse "$tmp/good.hlo" >"$tmp/out" 2>"$tmp/err"
rc=$?
t=$(($(date +%s) - start))
if [ "$rc" -ne 0 ]; then
	echo "FAIL valid $size-byte line: exit $rc"; head -c 600 "$tmp/err"; echo; fails=$((fails + 1))
else
	echo "ok   valid $size-byte line parses (${t}s)"
fi
rm -f "$tmp/good.hlo"

gen "$tmp/bad.hlo" frobnicate
start=$(date +%s)
timeout 120 "$HLOLINT" parse "$tmp/bad.hlo" >"$tmp/out" 2>"$tmp/err"
rc=$?
t=$(($(date +%s) - start))
col=$(head -n 1 "$tmp/err" | sed -n "s|^$tmp/bad.hlo:1:\([0-9]*\): error: unknown opcode 'frobnicate'\$|\1|p")
errbytes=$(wc -c <"$tmp/err")
if [ "$rc" -ne 2 ]; then
	echo "FAIL bad line: exit $rc, expected 2"; head -c 600 "$tmp/err"; echo; fails=$((fails + 1))
elif [ -z "$col" ] || [ "$col" -le $((MB * 1024 * 1024)) ]; then
	echo "FAIL bad line: not located at line 1 past the string:"; head -n 1 "$tmp/err" | cut -c1-300
	fails=$((fails + 1))
elif [ "$errbytes" -gt 4096 ]; then
	echo "FAIL bad line: $errbytes bytes on stderr (line not windowed)"; fails=$((fails + 1))
elif ! sed -n 2p "$tmp/err" | grep -q 'frobnicate'; then
	echo "FAIL bad line: echoed window does not show the opcode"; fails=$((fails + 1))
else
	echo "ok   bad line: error at 1:$col, $errbytes bytes of stderr (${t}s)"
fi

# Many small tokens on one line: 700 000 instructions, then an undefined
# operand at the very end.
awk 'BEGIN {
	printf "ENTRY %%main { %%a0 = f32[] parameter(0)"
	for (i = 1; i < 700000; i++) printf " %%a%d = f32[] negate(%%a%d)", i, i - 1
	printf " ROOT %%r = f32[] add(%%a699999, %%nope) }"
}' >"$tmp/toks.hlo"
timeout 120 "$HLOLINT" parse "$tmp/toks.hlo" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! head -n 1 "$tmp/err" | grep -q "^$tmp/toks.hlo:1:[0-9]*: error: use of undefined instruction 'nope'\$"; then
	echo "FAIL token line: exit $rc"; head -n 3 "$tmp/err" | cut -c1-300; fails=$((fails + 1))
elif [ "$(wc -c <"$tmp/err")" -gt 4096 ]; then
	echo "FAIL token line: $(wc -c <"$tmp/err") bytes on stderr"; fails=$((fails + 1))
else
	echo "ok   token line: $(head -n 1 "$tmp/err" | sed 's/: error.*//; s/.*hlo://')"
fi
[ "$fails" -eq 0 ]
