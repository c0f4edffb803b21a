#!/bin/sh
# suite: long
# test_deep_nesting.sh - 10 000-deep nesting of every bracket kind gives one
# located "nesting is too deep" error and exit 2 (no stack overflow, no
# error flood); 8 000-deep nesting (under XLA's 8192 limit) still parses.
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-deep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# gen NAME DEPTH PREFIX OPEN CORE CLOSE SUFFIX: PREFIX OPEN^DEPTH CORE CLOSE^DEPTH SUFFIX
gen() {
	awk -v n="$2" -v pre="$3" -v o="$4" -v core="$5" -v c="$6" -v suf="$7" 'BEGIN {
		printf "%s", pre
		for (i = 0; i < n; i++) printf "%s", o
		printf "%s", core
		for (i = 0; i < n; i++) printf "%s", c
		printf "%s", suf
	}' >"$tmp/$1.hlo"
}

bad() {
	timeout 20 "$HLOLINT" parse "$tmp/$1.hlo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	n=$(grep -c ': error: ' "$tmp/err")
	if [ "$rc" -ne 2 ]; then
		echo "FAIL $1: exit $rc, expected 2"; fails=$((fails + 1))
	elif ! head -n 1 "$tmp/err" | grep -q '^[^:]*:[0-9]*:[0-9]*: error: nesting is too deep'; then
		echo "FAIL $1: first line is not a located 'nesting is too deep':"; head -n 1 "$tmp/err" | cut -c1-200
		fails=$((fails + 1))
	elif [ "$n" -ne 1 ]; then
		echo "FAIL $1: $n errors, expected exactly one"; fails=$((fails + 1))
	elif [ "$(wc -c <"$tmp/err")" -gt 4096 ]; then
		echo "FAIL $1: stderr is $(wc -c <"$tmp/err") bytes"; fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

good() {
	timeout 20 "$HLOLINT" parse "$tmp/$1.hlo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $1: exit $rc, expected 0"; head -n 3 "$tmp/err" | cut -c1-200; fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

gen tuple 10000 "ENTRY %main {
  ROOT %p = " "(" "f32[]" ")" " parameter(0)
}
"
bad tuple
gen braces 10000 "ENTRY %main {
  ROOT %p = f32[] parameter(0), sharding=" "{" "replicated" "}" "
}
"
bad braces
gen brackets 10000 "ENTRY %main {
  ROOT %p = f32[] parameter(0), x=" "[" "1" "]" "
}
"
bad brackets
gen literal 10000 "ENTRY %main {
  ROOT %c = c64[] constant(" "(" "1, 2" ")" ")
}
"
bad literal
gen operands 100000 "ENTRY %main {
  %p = f32[] parameter(0)
  ROOT %r = f32[] " "negate(" "%p" ")" "
}
"
bad operands
gen bodies 10000 "%id {
  ROOT %x = f32[] parameter(0)
}

ENTRY %main {
  %p = f32[] parameter(0)
  ROOT %r = f32[] call(%p), to_apply=" "{ %x = f32[] parameter(0) ROOT %y = f32[] call(%x), to_apply=" "%id" "}" "
}
"
bad bodies
gen tuple_ok 8000 "ENTRY %main {
  ROOT %p = " "(" "f32[]" ")" " parameter(0)
}
"
good tuple_ok
gen operands_ok 8000 "ENTRY %main {
  %p = f32[] parameter(0)
  ROOT %r = f32[] " "negate(" "%p" ")" "
}
"
good operands_ok

[ "$fails" -eq 0 ]
