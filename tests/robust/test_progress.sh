#!/bin/sh
# test_progress.sh - progress on stderr for large inputs, only when stderr
# is a terminal: a module of 140,000 instructions, with the 256 MB
# threshold lowered by HLO_PROGRESS_BYTES, parsed under a pseudo-terminal
# (script(1)) shows "hlolint: parsing PATH: N%" and clears the line; with
# stderr redirected nothing is printed.  Skipped, saying so, without script.
. tests/lib.sh
f=$tmp/big.hlo
awk 'BEGIN { print "HloModule big"; print ""; print "ENTRY %main (p: f32[]) -> f32[] {";
	print "  %p = f32[] parameter(0)"; prev = "p";
	for (i = 0; i < 140000; i++) { printf "  %%a%d = f32[] add(%%%s, %%p)\n", i, prev; prev = "a" i }
	printf "  ROOT %%r = f32[] copy(%%%s)\n}\n", prev }' >"$f"
HLO_PROGRESS_BYTES=1000 "$HLOLINT" parse "$f" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || fail "parse: exit $rc"
[ -s "$tmp/err" ] && { fail "progress printed although stderr is not a terminal:"; head -c 200 "$tmp/err"; }
if ! command -v script >/dev/null 2>&1; then
	echo "skip (terminal part): script(1) is not installed"
	exit $st
fi
HLO_PROGRESS_BYTES=1000 script -qec "'$HLOLINT' parse '$f'" /dev/null >"$tmp/tty" 2>&1
rc=$?
[ $rc = 0 ] || fail "parse under a terminal: exit $rc"
grep -q "hlolint: parsing $f: *[0-9]*%" "$tmp/tty" || { fail "no progress line on the terminal"; od -c "$tmp/tty" | head -5; }
grep -q "$(printf '\033')\[K" "$tmp/tty" || fail "the progress line is not cleared at the end"
exit $st
