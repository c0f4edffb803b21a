#!/bin/sh
# test_long_names.sh - a computation's name is a slice of the source with a
# 22-bit length (ir.h): a name at the limit parses and prints whole; one
# byte longer is refused with file:line:col and exit 2, not truncated.
. tests/lib.sh
gen() {  # gen FILE NAME-LENGTH
	awk -v n="$2" 'BEGIN {
		s = "c"; while (length(s) < n) s = s s; s = substr(s, 1, n)
		printf "HloModule m\n\n%%%s (p: f32[]) -> f32[] {\n  ROOT %%p = f32[] parameter(0)\n}\n\n", s
		printf "ENTRY %%main {\n  %%a = f32[] parameter(0)\n  ROOT %%r = f32[] call(%%a), to_apply=%%%s\n}\n", s
	}' >"$1"
}
max=4194303
gen "$tmp/ok.hlo" $max
"$HLOLINT" fmt "$tmp/ok.hlo" >"$tmp/ok.out" 2>"$tmp/ok.err"
rc=$?
[ $rc -eq 0 ] || fail "a $max-byte computation name: exit $rc ($(head -c 200 "$tmp/ok.err"))"
n=$(awk -v n=$max '/to_apply=%c/ { s = $0; sub(/.*to_apply=%/, "", s); if (length(s) == n && s !~ /[^c]/) k++ }
	END { print k + 0 }' "$tmp/ok.out")
[ "$n" = 1 ] || fail "the $max-byte name is not printed whole in the call"
gen "$tmp/long.hlo" $((max + 1))
"$HLOLINT" parse "$tmp/long.hlo" >"$tmp/long.out" 2>"$tmp/long.err"
rc=$?
[ $rc -eq 2 ] || fail "a $((max + 1))-byte name: exit $rc, expected 2"
grep -q "long.hlo:3:1: error: computation name longer than $max bytes" "$tmp/long.err" ||
	fail "no located error for the long name: $(head -c 200 "$tmp/long.err")"
[ -s "$tmp/long.out" ] && fail "partial output for a refused name"
exit $st
